from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from chat import api, views

urlpatterns = [
    path("", views.home, name="chat-home"),
    path("ask/", views.ask, name="chat-ask"),
    path("new/", views.new_conversation, name="chat-new"),
    path("feedback/<int:answer_id>/", views.feedback, name="chat-feedback"),
    # API paths answer with or without the trailing slash: a client's POST must never meet a redirect.
    re_path(r"^api/v1/answer/?$", api.AnswerView.as_view(), name="api-answer"),
    re_path(r"^api/v1/questions/(?P<answer_id>[0-9]{1,18})/?$", api.StoredAnswerView.as_view(), name="api-question"),
    re_path(r"^api/v1/questions/(?P<answer_id>[0-9]{1,18})/feedback/?$", api.FeedbackView.as_view(),
            name="api-feedback"),
    re_path(r"^api/v1/health/?$", api.HealthView.as_view(), name="api-health"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
]
