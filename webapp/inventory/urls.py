"""Pages under /clusters/: inventories at /clusters/<id>/, workload mixes at /clusters/workloads/<id>/."""

from django.urls import path

from webapp.inventory import views

app_name = "inventory"
urlpatterns = [
    path("", views.stored_list, name="list"),
    path("upload/", views.upload, name="upload"),
    path("<int:pk>/", views.cluster_detail, name="cluster"),
    path("<int:pk>/files/<int:file_pk>/", views.cluster_file, name="cluster-file"),
    path("<int:pk>/delete/", views.cluster_delete, name="cluster-delete"),
    path("workloads/<int:pk>/", views.workload_detail, name="workload"),
    path("workloads/<int:pk>/files/<int:file_pk>/", views.workload_file, name="workload-file"),
    path("workloads/<int:pk>/delete/", views.workload_delete, name="workload-delete"),
]
