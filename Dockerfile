# The image docker-compose.yml runs as web and worker.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml constraints.txt README.md ./
COPY engine ./engine
COPY webapp ./webapp
RUN pip install --no-cache-dir -c constraints.txt .
COPY . .
RUN useradd --create-home --uid 1000 whatif && mkdir -p /app/var && chown whatif /app/var
USER whatif
EXPOSE 8000
