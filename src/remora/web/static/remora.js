// Remora review pages: filters, keyboard navigation, live run progress.
// Plain DOM code, no build step; the server renders every page without it.
"use strict";

function typing(event) {
  const tag = (event.target.tagName || "").toLowerCase();
  return tag === "input" || tag === "textarea" || tag === "select" || event.target.isContentEditable;
}

function go(href) {
  if (href) window.location.href = href;
}

function setupFilters() {
  for (const select of document.querySelectorAll("select[data-autosubmit]")) {
    select.addEventListener("change", () => select.form.submit());
  }
}

function setupQueue() {
  const rows = Array.from(document.querySelectorAll("#queue tbody tr[data-href]"));
  if (!rows.length) return;
  let index = 0;
  const select = (next) => {
    rows[index].classList.remove("selected");
    index = Math.max(0, Math.min(rows.length - 1, next));
    rows[index].classList.add("selected");
    rows[index].scrollIntoView({ block: "nearest" });
  };
  select(0);
  for (const [i, row] of rows.entries()) {
    row.addEventListener("click", (event) => {
      if (event.target.tagName !== "A") go(row.dataset.href);
      select(i);
    });
  }
  document.addEventListener("keydown", (event) => {
    if (typing(event) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "j" || event.key === "ArrowDown") select(index + 1);
    else if (event.key === "k" || event.key === "ArrowUp") select(index - 1);
    else if (event.key === "Enter" || event.key === "o") go(rows[index].dataset.href);
    else return;
    event.preventDefault();
  });
}

function setupChange() {
  const click = (id) => {
    const element = document.getElementById(id);
    if (element) element.click();
  };
  const reason = document.getElementById("reason");
  if (reason) {
    reason.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) click("reject");
    });
  }
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && typing(event)) {
      event.target.blur();
      return;
    }
    if (typing(event) || event.ctrlKey || event.metaKey || event.altKey) return;
    const keys = {
      a: () => click("accept-all"),
      s: () => click("accept-selected"),
      x: () => reason && reason.focus(),
      n: () => click("next"),
      p: () => click("previous"),
      q: () => go("/"),
      Escape: () => go("/"),
      v: () => {
        const split = document.getElementById("view-split");
        if (split) click(split.classList.contains("current") ? "view-unified" : "view-split");
      },
    };
    if (!(event.key in keys)) return;
    event.preventDefault();
    keys[event.key]();
  });
}

function runCells(run) {
  const tasks = run.tasks === null ? "?" : String(run.tasks);
  const phase = run.running ? "running" : "finished in " + Math.round(run.duration_s) + " s";
  return { tasks, phase };
}

function newRunRow(run) {
  const row = document.createElement("tr");
  row.id = "run-" + run.run_id;
  row.dataset.run = run.run_id;
  const cells = [
    () => { const code = document.createElement("code"); code.textContent = run.run_id; return code; },
    () => document.createTextNode(run.command + " " + run.operations.join(", ")),
    () => document.createTextNode(new Date(run.started * 1000).toLocaleString()),
  ];
  for (const make of cells) {
    const td = document.createElement("td");
    td.appendChild(make());
    row.appendChild(td);
  }
  const progress = document.createElement("td");
  progress.className = "progress";
  progress.innerHTML = '<progress></progress> <span class="done"></span>/<span class="tasks"></span> <span class="phase"></span>';
  row.appendChild(progress);
  for (const name of ["succeeded", "failed", "skipped"]) {
    const td = document.createElement("td");
    td.className = "num " + name;
    row.appendChild(td);
  }
  const reviews = document.createElement("td");
  reviews.className = "reviews";
  row.appendChild(reviews);
  return row;
}

function showRun(row, run) {
  const { tasks, phase } = runCells(run);
  row.dataset.running = run.running ? "yes" : "no";
  const bar = row.querySelector("progress");
  bar.max = run.tasks || run.done || 1;
  bar.value = run.done;
  row.querySelector(".done").textContent = String(run.done);
  row.querySelector(".tasks").textContent = tasks;
  row.querySelector(".phase").textContent = phase;
  row.querySelector(".succeeded").textContent = String(run.statuses.success || 0);
  row.querySelector(".failed").textContent = String(run.failed);
  row.querySelector(".skipped").textContent = String(run.statuses.skipped || 0);
  row.querySelector(".reviews").textContent = Object.entries(run.reviews).map(([s, n]) => n + " " + s).join(" ");
}

function setupRuns() {
  const body = document.querySelector("#runs tbody");
  if (!body) return;
  // Polls the results database through /api/runs: every second while a run is
  // going, every three otherwise so that a run started elsewhere shows up.
  const poll = async () => {
    let running = false;
    try {
      const response = await fetch("/api/runs", { credentials: "same-origin" });
      if (response.ok) {
        const { runs } = await response.json();
        for (const run of runs.slice().reverse()) {
          let row = document.getElementById("run-" + run.run_id);
          if (!row) {
            row = newRunRow(run);
            const empty = body.querySelector("td.empty");
            if (empty) empty.parentElement.remove();
            body.insertBefore(row, body.firstChild);
          }
          showRun(row, run);
        }
        running = runs.some((run) => run.running);
      }
    } finally {
      window.setTimeout(poll, running ? 1000 : 3000);
    }
  };
  window.setTimeout(poll, 1000);
}

document.addEventListener("DOMContentLoaded", () => {
  setupFilters();
  const page = document.body.dataset.page;
  if (page === "queue") setupQueue();
  else if (page === "change") setupChange();
  else if (page === "runs") setupRuns();
});
