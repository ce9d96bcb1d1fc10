from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("chat.urls")),
]

# The API answers every error as JSON, also for paths no view matches and for failures outside a view.
handler404 = "chat.errors.not_found"
handler500 = "chat.errors.server_error"
