"""The veterans' chat pages. Each form works without JavaScript (it posts, the page reloads at the answer);
with htmx the same form swaps in just the new answer."""

from __future__ import annotations

import uuid
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from chat.models import AnswerFeedback
from chat.presenters import turn_present
from chat.selectors import conversation_turns_get, feedback_get, scope_describe
from chat.services import chat_ask, conversation_clear, feedback_record
from chat.throttling import ChatThrottle
from verification.pipeline.generation import whitelist  # the domains answers may link to
from verification.services import QuestionInvalid

SESSION_KEY = "conversation"
ERR_THROTTLED = "You're asking faster than we can answer. Please wait {wait} seconds and ask again."
ERR_UNKNOWN_SCOPE = "This page was opened for a topic or source we don't know: {value}. You can still ask about any VA benefit."
REASON_LABELS = {
    AnswerFeedback.Reason.WRONG: "It's wrong",
    AnswerFeedback.Reason.OUTDATED: "It's out of date",
    AnswerFeedback.Reason.UNCLEAR: "It's hard to understand",
    AnswerFeedback.Reason.MISSING: "It leaves out what I asked",
}


def _conversation_key(request: HttpRequest, *, create: bool) -> str | None:
    key = request.session.get(SESSION_KEY)
    if key is None and create:
        key = request.session[SESSION_KEY] = f"web:{uuid.uuid4().hex}"
    return key


def _scope(request: HttpRequest, data) -> tuple[dict[str, str], str]:
    """The topic or source the page is restricted to ({} when none), and an error naming an unknown one."""
    wanted = {name: data.get(name, "").strip() for name in ("topic", "source") if data.get(name, "").strip()}
    described = scope_describe(topic=wanted.get("topic"), source=wanted.get("source"))
    if wanted and described is None:
        return {}, ERR_UNKNOWN_SCOPE.format(value=next(iter(wanted.values()))[:100])
    return wanted, ""


def _page_url(scope: dict[str, str], anchor: str = "") -> str:
    url = reverse("chat-home") + (f"?{urlencode(scope)}" if scope else "")
    return f"{url}#{anchor}" if anchor else url


def _turns(request: HttpRequest, *, asking_reason_for: int | None = None):
    key = _conversation_key(request, create=False)
    if key is None:
        return []
    domains = whitelist()
    turns = conversation_turns_get(conversation_key=key)
    votes = feedback_get(voter=key, answer_ids=[t.answered_question_id for t in turns if t.answered_question_id])
    return [turn_present(t, domains=domains, feedback=votes.get(t.answered_question_id),
                         asking_reason=t.answered_question_id == asking_reason_for) for t in turns]


def _asking_reason_for(value: str) -> int | None:
    """`?feedback=<answer id>:reason` (the page after a "no" vote without JavaScript) names the answer."""
    answer_id, _, state = value.partition(":")
    return int(answer_id) if answer_id.isdigit() and state == "reason" else None


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    scope, error = _scope(request, request.GET)
    context = {"turns": _turns(request, asking_reason_for=_asking_reason_for(request.GET.get("feedback", ""))),
               "scope": scope, "scope_label": scope_describe(**scope) if scope else "", "scope_error": error,
               "reasons": REASON_LABELS}
    return render(request, "chat/home.html", context, status=400 if error else 200)


@require_POST
def ask(request: HttpRequest) -> HttpResponse:
    scope, scope_error = _scope(request, request.POST)
    throttle = ChatThrottle()
    error = scope_error
    if not error and not throttle.allow_request(request, None):
        error = ERR_THROTTLED.format(wait=int(throttle.wait() or 1))
    if not error:
        try:
            answered = chat_ask(question=request.POST.get("question", ""),
                                conversation_key=_conversation_key(request, create=True), **scope)
        except QuestionInvalid as exc:
            error = exc.message
    if error:
        if request.htmx:
            response = render(request, "chat/home.html#ask-error", {"error": error})
            response["HX-Retarget"], response["HX-Reswap"] = "#ask-error", "outerHTML"
            return response
        context = {"turns": _turns(request), "scope": scope, "error": error, "question": request.POST.get("question", ""),
                   "reasons": REASON_LABELS}
        return render(request, "chat/home.html", context, status=429 if "wait" in error else 400)
    turn = turn_present(answered.turn, domains=whitelist())
    if request.htmx:
        return render(request, "chat/home.html#turn", {"turn": turn, "reasons": REASON_LABELS, "fresh": True})
    return HttpResponseRedirect(_page_url(scope, f"turn-{turn.id}"), status=303)


@require_POST
def new_conversation(request: HttpRequest) -> HttpResponse:
    if key := _conversation_key(request, create=False):
        conversation_clear(conversation_key=key)
        del request.session[SESSION_KEY]
    scope, _ = _scope(request, request.POST)
    return HttpResponseRedirect(_page_url(scope, "question"), status=303)


@require_POST
def feedback(request: HttpRequest, answer_id: int) -> HttpResponse:
    key = _conversation_key(request, create=False)
    turn_ids = {t.answered_question_id: t for t in conversation_turns_get(conversation_key=key)} if key else {}
    if answer_id not in turn_ids:  # only answers this conversation was given can be voted on from the page
        return HttpResponse(status=404)
    helpful = request.POST.get("helpful") == "1"
    reason = request.POST.get("reason", "")
    if reason not in AnswerFeedback.Reason.values:
        reason = ""
    vote = feedback_record(answered_question_id=answer_id, voter=key, helpful=helpful, reason=reason,
                           comment=request.POST.get("comment", ""))
    # "No" first records the vote, then asks why (optional); sending the reason ends in thanks.
    asking_reason = not helpful and request.POST.get("step") != "reason"
    if request.htmx:
        turn = turn_present(turn_ids[answer_id], domains=whitelist(), feedback=vote, asking_reason=asking_reason)
        return render(request, "chat/home.html#feedback", {"turn": turn, "reasons": REASON_LABELS, "fresh": True})
    scope, _ = _scope(request, request.POST)
    query = {**scope, **({"feedback": f"{answer_id}:reason"} if asking_reason else {})}
    return HttpResponseRedirect(f"{reverse('chat-home')}?{urlencode(query)}#feedback-{answer_id}", status=303)
