from django.contrib import admin
from django.urls import include, path

from veterans_ai.metrics import metrics_view

urlpatterns = [
    path("admin/", admin.site.urls),
    path("metrics", metrics_view, name="metrics"),
    path("", include("chat.urls")),
]

# The API answers every error as JSON, also for paths no view matches and for failures outside a view.
handler404 = "chat.errors.not_found"
handler500 = "chat.errors.server_error"
