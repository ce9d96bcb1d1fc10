"""The reviewers' workbench: read an answer with its evidence, decide on it (verify, flag, clear a flag, send
back to the queue, correct), work through low-confidence reports and the stale queue, see the dashboard.

Views here parse the request, call one service of verification.review and render; reads come from
verification.review_selectors. Only staff with the reviewer group's permissions decide; others read.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe

from knowledge.models import AnsweredQuestion
from verification import review
from verification import review_selectors as rs
from verification.layers.confidence import confidence_band
from verification.models import LowConfidenceDigest, LowConfidenceReport
from verification.pipeline.generation import whitelist
from verification.rendering import markdown_render

MSG_VERIFIED = "{count} answer(s) verified."
MSG_FLAGGED = "{count} answer(s) flagged: their text will not be served again until corrected."
MSG_FLAG_CLEARED = "{count} flag(s) cleared."
MSG_REQUEUED = "{count} answer(s) sent back to the queue."
MSG_CORRECTED = "The correction passed every check and is now the verified answer served for this question."
MSG_REPORT_RESOLVED = "{count} report(s) resolved."
MSG_SKIPPED = "{count} skipped: {reason}"
DECISIONS = {
    "verify": ("verify", MSG_VERIFIED, messages.SUCCESS),
    "flag": ("flag", MSG_FLAGGED, messages.WARNING),
    "clear_flag": ("flag", MSG_FLAG_CLEARED, messages.SUCCESS),
    "requeue": ("flag", MSG_REQUEUED, messages.SUCCESS),
}
EXCERPT_CHARS = 120

def answer_html(row: AnsweredQuestion) -> str:
    """Render an answer exactly as the chat page does, its [n] markers linked to the evidence below."""
    return markdown_render(row.answer, domains=whitelist(), anchor_prefix="citation-",
                           citation_count=len(row.citations))


class StateFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"
    STATES = {
        "queue": ("In the queue", rs.review_queue()),
        "stale": ("Stale (a source changed)", {"stale": True}),
        "flagged": ("Flagged", {"flagged": True}),
        "verified": ("Verified", {"verified": True}),
        "corrected": ("Corrected", {"verified": True, "corrected_at__isnull": False}),
        "unreviewed": ("Served, unreviewed", {"current": True, "needs_review": False, "verified": False,
                                              "flagged": False, "refused": False}),
        "refused": ("Refused", {"refused": True}),
        "retired": ("Out of the cache", {"current": False, "stale": False, "off_record": False}),
        "off_record": ("Off the record (no-cache and evaluation runs)", {"off_record": True}),
    }

    def lookups(self, request, model_admin):
        return [(key, label) for key, (label, _) in self.STATES.items()]

    def queryset(self, request, queryset):
        if self.value() not in self.STATES:
            return queryset.filter(off_record=False)
        condition = self.STATES[self.value()][1]
        return queryset.filter(condition) if not isinstance(condition, dict) else queryset.filter(**condition)


class ConfidenceBandFilter(admin.SimpleListFilter):
    title = "confidence"
    parameter_name = "confidence"

    def lookups(self, request, model_admin):
        return [(key, label) for key, label, _, _ in rs.CONFIDENCE_BANDS]

    def queryset(self, request, queryset):
        for key, _, low, high in rs.CONFIDENCE_BANDS:
            if self.value() == key:
                return queryset.filter(confidence__gte=low, confidence__lt=high)
        return queryset


class FeedbackFilter(admin.SimpleListFilter):
    title = "feedback"
    parameter_name = "feedback"

    def lookups(self, request, model_admin):
        if rs.feedback_model() is None:
            return []
        return [("any", "Has feedback"), ("unhelpful", "Has “not helpful” feedback"), ("none", "No feedback")]

    def queryset(self, request, queryset):
        if rs.feedback_model() is None or self.value() is None:
            return queryset
        if self.value() == "none":
            return queryset.filter(feedback__isnull=True)
        if self.value() == "unhelpful":
            return queryset.filter(feedback__helpful=False).distinct()
        return queryset.filter(feedback__isnull=False).distinct()


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), required=False, strip=True)
    version = forms.IntegerField(required=False, widget=forms.HiddenInput)


class CorrectionForm(forms.Form):
    text = forms.CharField(label="Corrected answer", widget=forms.Textarea(attrs={"rows": 14, "cols": 100}))
    reason = forms.CharField(label="What was wrong", required=False,
                             widget=forms.Textarea(attrs={"rows": 2, "cols": 100}))
    version = forms.IntegerField(widget=forms.HiddenInput)


@admin.register(AnsweredQuestion)
class AnsweredQuestionAdmin(admin.ModelAdmin):
    list_display = ["question_excerpt", "answer_excerpt", "confidence_band", "state", "hit_count", "last_served_at",
                    "feedback_count", "created_at"]
    list_filter = [StateFilter, "refusal_reason", ("topics", admin.RelatedOnlyFieldListFilter), ConfidenceBandFilter,
                   FeedbackFilter, "stale", "created_at"]
    search_fields = ["question", "answer", "review_note"]
    ordering = ["-created_at"]
    date_hierarchy = "created_at"
    readonly_fields = [
        "question", "question_hash", "gate_key", "answer", "citations", "confidence", "retrieval_score", "retrieved",
        "weak_retrieval", "refused", "refusal_reason", "warning", "suggestions", "model", "routing_reason",
        "verification", "trace", "embedding_model", "needs_review", "stale", "current", "off_record", "verified",
        "verified_by", "verified_at", "flagged", "flagged_by", "flagged_at", "corrected_by", "corrected_at",
        "review_note", "review_version", "hit_count", "verified_hit_count", "last_served_at", "created_at",
        "updated_at",
    ]
    actions = ["verify", "flag", "clear_flag", "requeue"]
    change_form_template = "admin/knowledge/answeredquestion/change_form.html"
    change_list_template = "admin/knowledge/answeredquestion/change_list.html"
    list_per_page = 50

    def get_queryset(self, request):
        rows = super().get_queryset(request).defer("question_embedding", "answer_embedding", "trace", "retrieved")
        if rs.feedback_model() is not None:
            rows = rows.annotate(feedback_total=Count("feedback", distinct=True))
        return rows

    # ---- permissions: decisions need the reviewer group's permissions; nobody edits fields directly ----

    def has_add_permission(self, request):
        return False  # answers come from the pipeline, not from a form

    def has_change_permission(self, request, obj=None):
        return False  # decisions are buttons and actions below, each a service with its history

    def has_delete_permission(self, request, obj=None):
        return False  # a reviewer's decision is never lost: answers leave the cache, not the database

    def has_verify_permission(self, request):
        return request.user.has_perm("knowledge.verify_answeredquestion")

    def has_flag_permission(self, request):
        return request.user.has_perm("knowledge.flag_answeredquestion")

    def has_correct_permission(self, request):
        return request.user.has_perm("knowledge.correct_answeredquestion")

    # ---- the list ----

    @admin.display(description="question", ordering="question")
    def question_excerpt(self, obj):
        return obj.question[:EXCERPT_CHARS]

    @admin.display(description="answer")
    def answer_excerpt(self, obj):
        text = obj.answer if not obj.warning else obj.answer.removeprefix(obj.warning).lstrip()
        return text[:EXCERPT_CHARS] + ("…" if len(text) > EXCERPT_CHARS else "")

    @admin.display(description="confidence", ordering="confidence")
    def confidence_band(self, obj):
        return f"{obj.confidence:.2f} · {confidence_band(obj.confidence)}"

    @admin.display(description="state")
    def state(self, obj):
        return review.review_state_label(obj)

    @admin.display(description="feedback")
    def feedback_count(self, obj):
        return getattr(obj, "feedback_total", "—")

    # ---- list actions: one service call per row; a reason is asked where it matters ----

    @admin.action(description="Verify the selected answers", permissions=["verify"])
    def verify(self, request, queryset):
        return self._decide_many(request, queryset, "verify")

    @admin.action(description="Flag the selected answers (reason required)", permissions=["flag"])
    def flag(self, request, queryset):
        return self._decide_many(request, queryset, "flag")

    @admin.action(description="Clear the flags of the selected answers (reason required)", permissions=["flag"])
    def clear_flag(self, request, queryset):
        return self._decide_many(request, queryset, "clear_flag")

    @admin.action(description="Send the selected answers back to the queue (reason required)", permissions=["flag"])
    def requeue(self, request, queryset):
        return self._decide_many(request, queryset, "requeue")

    def _decide_many(self, request, queryset, decision):
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if decision != "verify" and not (form.is_bound and form.is_valid() and form.cleaned_data["reason"]):
            return TemplateResponse(request, "admin/knowledge/answeredquestion/action_reason.html", {
                **self.admin_site.each_context(request), "opts": self.model._meta, "title": DECISION_TITLES[decision],
                "rows": queryset, "action": decision, "form": form, "missing": form.is_bound,
                "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            })
        reason = form.cleaned_data["reason"] if form.is_bound and form.is_valid() else ""
        done, errors = 0, []
        for row in queryset:
            try:
                _decide(decision, row=row, user=request.user, reason=reason, version=None)
                done += 1
            except review.ReviewError as exc:
                errors.append(exc.message)
        self.message_user(request, DECISIONS[decision][1].format(count=done), DECISIONS[decision][2])
        if errors:
            self.message_user(request, MSG_SKIPPED.format(count=len(errors), reason=errors[0]), messages.ERROR)
        return None

    # ---- the change page: evidence and decision buttons ----

    def get_urls(self):
        prefix = f"{self.model._meta.app_label}_{self.model._meta.model_name}"
        return [
            path("dashboard/", self.admin_site.admin_view(self.dashboard_view), name=f"{prefix}_dashboard"),
            path("<path:object_id>/decide/", self.admin_site.admin_view(self.decide_view), name=f"{prefix}_decide"),
            path("<path:object_id>/correct/", self.admin_site.admin_view(self.correct_view), name=f"{prefix}_correct"),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        row = self.get_object(request, object_id)
        extra = {}
        if row is not None:
            from verification.pipeline.retrieval import thresholds

            extra = {
                "row": row,
                "answer_html": answer_html(row),
                "state": review.review_state_label(row),
                "evidence": rs.answer_evidence(answered_question=row),
                "verification_lines": rs.verification_in_words(answered_question=row,
                                                               citation_flag=thresholds()["citation_flag"]),
                "trace": rs.trace_rows(trace=row.trace),
                "feedback": rs.feedback_list(answered_question=row),
                "feedback_enabled": rs.feedback_model() is not None,
                "history": rs.review_history(answered_question=row),
                "report": LowConfidenceReport.objects.filter(answered_question_id=row.id).first(),
                "source_changes": list(row.source_changes.all()),
                "recheck": (row.verification or {}).get("recheck") if row.stale else None,
                "can_verify": self.has_verify_permission(request),
                "can_flag": self.has_flag_permission(request),
                "can_correct": self.has_correct_permission(request) and not row.refused,
                "can_resolve": request.user.has_perm("verification.resolve_lowconfidencereport"),
            }
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), **extra})

    def get_object(self, request, object_id, from_field=None):
        obj = super().get_object(request, object_id, from_field)
        if obj is not None:  # one query for the people named on the page
            obj = (AnsweredQuestion.objects.select_related("verified_by", "flagged_by", "corrected_by")
                   .defer("question_embedding", "answer_embedding").get(id=obj.id))
        return obj

    def decide_view(self, request, object_id):
        if request.method != "POST":
            return HttpResponseRedirect(self._change_url(object_id))
        return _decide_view(self, request, object_id)

    def correct_view(self, request, object_id):
        if not self.has_correct_permission(request):
            raise PermissionDenied
        row = get_object_or_404(AnsweredQuestion.objects.defer("question_embedding", "answer_embedding"),
                                id=object_id)
        problems: tuple[str, ...] = ()
        if request.method == "POST":
            form = CorrectionForm(request.POST)
            if form.is_valid():
                try:
                    review.answer_correct(answered_question=row, user=request.user, text=form.cleaned_data["text"],
                                          reason=form.cleaned_data["reason"],
                                          expected_version=form.cleaned_data["version"])
                    self.message_user(request, MSG_CORRECTED, messages.SUCCESS)
                    return HttpResponseRedirect(self._change_url(row.id))
                except review.CorrectionRefused as exc:
                    problems = exc.problems
                except review.ReviewError as exc:
                    problems = (exc.message,)
        else:
            text = row.answer.removeprefix(row.warning).lstrip() if row.warning else row.answer
            form = CorrectionForm(initial={"text": text, "version": row.review_version})
        return TemplateResponse(request, "admin/knowledge/answeredquestion/correct.html", {
            **self.admin_site.each_context(request), "opts": self.model._meta, "original": row, "row": row,
            "title": f"Correct the answer to “{row.question[:80]}”", "crumb": "Correct", "form": form,
            "problems": problems,
            "evidence": rs.answer_evidence(answered_question=row),
        })

    def dashboard_view(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied
        return TemplateResponse(request, "admin/review/dashboard.html", {
            **self.admin_site.each_context(request), "opts": self.model._meta, "title": "Reviewer dashboard",
            "figures": rs.dashboard_get(), "days": rs.DASHBOARD_DAYS,
            "queue_url": reverse("admin:knowledge_answeredquestion_changelist") + "?state=queue",
            "stale_url": reverse("admin:knowledge_answeredquestion_changelist") + "?state=stale",
            "gaps_url": reverse("admin:verification_lowconfidencereport_gaps"),
        })

    def _change_url(self, object_id) -> str:
        return reverse("admin:knowledge_answeredquestion_change", args=[object_id])


DECISION_TITLES = {
    "verify": "Verify answers",
    "flag": "Flag answers: say what is wrong",
    "clear_flag": "Clear flags: say why the flag was wrong",
    "requeue": "Send answers back to the queue: say why",
}


def _decide(decision: str, *, row: AnsweredQuestion, user, reason: str, version: int | None) -> AnsweredQuestion:
    if decision == "verify":
        return review.answer_verify(answered_question=row, user=user, note=reason, expected_version=version)
    service = {"flag": review.answer_flag, "clear_flag": review.answer_flag_clear,
               "requeue": review.answer_requeue}[decision]
    return service(answered_question=row, user=user, reason=reason, expected_version=version)


def _decide_view(model_admin: AnsweredQuestionAdmin, request, object_id):
    decision = request.POST.get("decision", "")
    if decision not in DECISIONS:
        raise PermissionDenied
    permission = DECISIONS[decision][0]
    if not getattr(model_admin, f"has_{permission}_permission")(request):
        raise PermissionDenied
    row = get_object_or_404(AnsweredQuestion.objects.defer("question_embedding", "answer_embedding"), id=object_id)
    form = ReasonForm(request.POST)
    form.is_valid()
    try:
        _decide(decision, row=row, user=request.user, reason=form.cleaned_data.get("reason", ""),
                version=form.cleaned_data.get("version"))
        model_admin.message_user(request, DECISIONS[decision][1].format(count=1), DECISIONS[decision][2])
    except review.ReviewError as exc:
        model_admin.message_user(request, exc.message, messages.ERROR)
    return HttpResponseRedirect(model_admin._change_url(row.id))


class ResolveForm(forms.Form):
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), required=False, strip=True)


@admin.register(LowConfidenceReport)
class LowConfidenceReportAdmin(admin.ModelAdmin):
    list_display = ["question_link", "topic_gap", "best_score", "citation_score", "status", "resolved_by",
                    "created_at"]
    list_filter = ["status", "topic_gap", "created_at"]
    search_fields = ["answered_question__question", "resolution_note", "topic_gap"]
    ordering = ["-created_at"]
    readonly_fields = ["answered_question", "best_score", "citation_score", "topic_gap", "report_in_words", "status",
                       "resolution_note", "resolved_by", "resolved_at", "created_at", "updated_at"]
    fields = readonly_fields
    list_select_related = ["answered_question", "resolved_by"]
    actions = ["resolve"]
    change_list_template = "admin/verification/lowconfidencereport/change_list.html"

    def get_queryset(self, request):
        return super().get_queryset(request).defer("answered_question__question_embedding",
                                                   "answered_question__answer_embedding",
                                                   "answered_question__trace", "answered_question__retrieved")

    def has_add_permission(self, request):
        return False  # reports come from the low-confidence task

    def has_change_permission(self, request, obj=None):
        return False  # resolving is an action with a note, kept in the history

    def has_delete_permission(self, request, obj=None):
        return False

    def has_resolve_permission(self, request):
        return request.user.has_perm("verification.resolve_lowconfidencereport")

    @admin.display(description="question", ordering="answered_question__question")
    def question_link(self, obj):
        url = reverse("admin:knowledge_answeredquestion_change", args=[obj.answered_question_id])
        return format_html('<a href="{}">{}</a>', url, obj.answered_question.question[:EXCERPT_CHARS])

    @admin.display(description="report")
    def report_in_words(self, obj):
        report = obj.report or {}
        parts = [format_html("<p><strong>Topic gaps:</strong> {}</p>", ", ".join(report.get("topic_gaps", [])) or "none")]
        parts += [format_html("<p>{}</p>", line) for line in report.get("recommendations", [])]
        return mark_safe("".join(parts))  # each part is escaped by format_html

    @admin.action(description="Resolve the selected reports (note required)", permissions=["resolve"])
    def resolve(self, request, queryset):
        form = ResolveForm(request.POST if "apply" in request.POST else None)
        if not (form.is_bound and form.is_valid() and form.cleaned_data["note"]):
            return TemplateResponse(request, "admin/verification/lowconfidencereport/resolve.html", {
                **self.admin_site.each_context(request), "opts": self.model._meta,
                "title": "Resolve reports: say what was done", "rows": queryset, "form": form,
                "missing": form.is_bound, "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            })
        count = 0
        for report in queryset:
            review.low_confidence_report_resolve(report=report, user=request.user, note=form.cleaned_data["note"])
            count += 1
        self.message_user(request, MSG_REPORT_RESOLVED.format(count=count), messages.SUCCESS)
        return None

    def get_urls(self):
        return [
            path("gaps/", self.admin_site.admin_view(self.gaps_view), name="verification_lowconfidencereport_gaps"),
            path("<path:object_id>/resolve/", self.admin_site.admin_view(self.resolve_view),
                 name="verification_lowconfidencereport_resolve"),
            *super().get_urls(),
        ]

    def gaps_view(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied
        return TemplateResponse(request, "admin/verification/lowconfidencereport/gaps.html", {
            **self.admin_site.each_context(request), "opts": self.model._meta,
            "title": "Open low-confidence reports by topic gap", "crumb": "By topic gap", "groups": rs.topic_gaps_list(),
        })

    def resolve_view(self, request, object_id):
        if request.method != "POST" or not self.has_resolve_permission(request):
            raise PermissionDenied
        report = get_object_or_404(LowConfidenceReport, id=object_id)
        form = ResolveForm(request.POST)
        form.is_valid()
        try:
            review.low_confidence_report_resolve(report=report, user=request.user,
                                                 note=form.cleaned_data.get("note", ""))
            self.message_user(request, MSG_REPORT_RESOLVED.format(count=1), messages.SUCCESS)
        except review.ReviewError as exc:
            self.message_user(request, exc.message, messages.ERROR)
        back = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                               require_https=request.is_secure()):
            back = reverse("admin:verification_lowconfidencereport_changelist")
        return HttpResponseRedirect(back)



@admin.register(LowConfidenceDigest)
class LowConfidenceDigestAdmin(admin.ModelAdmin):
    list_display = ["day", "report_count", "open_count", "largest_gaps"]
    list_filter = ["day"]
    search_fields = ["groups"]
    ordering = ["-day"]
    readonly_fields = ["day", "report_count", "open_count", "groups_table", "created_at", "updated_at"]
    fields = readonly_fields
    date_hierarchy = "day"

    def has_add_permission(self, request):
        return False  # written by the daily digest job

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="largest gaps")
    def largest_gaps(self, obj):
        return ", ".join(f"{g['topic_gap']} ({g['count']})" for g in obj.groups[:3]) or "—"

    @admin.display(description="by topic gap")
    def groups_table(self, obj):
        rows = []
        for g in obj.groups:
            examples = format_html_join(
                "", '<li><a href="{}">{}</a> ({})</li>',
                ((reverse("admin:knowledge_answeredquestion_change", args=[e["answered_question_id"]]), e["question"],
                  e["best_score"]) for e in g["examples"]),
            )
            rows.append(format_html("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><ul>{}</ul></td></tr>",
                                    g["topic_gap"], g["count"], g["open"], g["mean_best_score"], examples))
        head = mark_safe("<tr><th>Topic gap</th><th>Answers</th><th>Still open</th><th>Mean best score</th>"
                         "<th>Examples</th></tr>")
        return format_html("<table>{}{}</table>", head, mark_safe("".join(rows)))  # each row built by format_html
