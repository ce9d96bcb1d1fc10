from django.urls import path

from chat.api import AnswerView

urlpatterns = [
    path("api/v1/answer/", AnswerView.as_view(), name="api-answer"),
]
