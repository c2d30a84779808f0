"""The upload form: what is being uploaded, its name, and the files."""

from __future__ import annotations

from typing import Any

from django import forms

INVENTORY = "inventory"
WORKLOAD = "workload"


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one input, as Django's documentation shows."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> Any:
        single = super().clean
        if isinstance(data, list | tuple):
            if not data:  # nothing chosen: the single-file check says "required"
                return [single(None, initial)]
            return [single(item, initial) for item in data]
        return [single(data, initial)]


class UploadForm(forms.Form):
    kind = forms.ChoiceField(
        label="What are you uploading?",
        choices=[
            (INVENTORY, "A cluster inventory (nodes, and the pods running on them)"),
            (WORKLOAD, "A workload mix (pods and workloads to place)"),
        ],
        widget=forms.RadioSelect,
        initial=INVENTORY,
    )
    name = forms.CharField(label="Name", max_length=200)
    description = forms.CharField(label="Description", required=False, widget=forms.Textarea)
    files = MultipleFileField(
        label="Files",
        help_text=(
            "YAML or JSON manifests (several at once, such as kubectl get nodes,pods -A -o yaml"
            " output), or one .zip or .tar.gz archive of them."
        ),
    )
