/* Chat page behaviour on top of htmx: focus the new answer after each swap, clear the question box, and say
   so when a request fails. Everything here is an enhancement: the forms work without it. */
(function () {
  "use strict";
  var ERR_NETWORK = "We couldn't reach the service, so your question wasn't answered. Check your connection and try again.";
  var ERR_SERVER = "Something went wrong and your question wasn't answered. Please try again in a minute.";

  function askError(message) {
    var slot = document.getElementById("ask-error");
    if (slot) { slot.textContent = message; }
  }

  document.addEventListener("htmx:load", function (event) {
    var elt = event.detail.elt;
    if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-fresh")) { return; }
    elt.removeAttribute("data-fresh");
    var target = null;
    if (elt.classList.contains("turn")) {
      target = elt.querySelector(".question");
      var restart = document.querySelector("form.new-conversation");
      if (restart) { restart.hidden = false; }
    } else if (elt.classList.contains("feedback")) {
      target = elt.querySelector("legend, .thanks");
    }
    if (target) { target.focus(); }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (!event.detail.successful || !form || form.id !== "ask-form") { return; }
    if (event.detail.xhr && event.detail.xhr.getResponseHeader("HX-Retarget")) {
      var box = document.getElementById("question");
      if (box) { box.focus(); }
      return;
    }
    form.querySelector("textarea").value = "";
    askError("");
  });

  document.addEventListener("htmx:sendError", function () { askError(ERR_NETWORK); });
  document.addEventListener("htmx:timeout", function () { askError(ERR_NETWORK); });
  document.addEventListener("htmx:responseError", function () { askError(ERR_SERVER); });
}());
