import Crypto
import Foundation
import Hummingbird
import NIOCore

/// `GET /board` (issue 37): the kitchen board and phone page. One static page — no family data in
/// it, so it needs no token to fetch. Its script takes the device token from the URL's fragment
/// (`/board#token=hth_…`, never sent to the server or a proxy's log), keeps it in the browser, and
/// reads everything through the token's routes: the six `/v1/views/…`, the event stream (refetching
/// an area's view when a `change` event names it), `/v1/turns` for the text box, and
/// `/v1/board/sign-in` plus `/v1/chores/{id}/complete` for a child who signs in with their PIN and
/// taps a chore. Every text from the family is set with `textContent`, never as HTML. The Content
/// Security Policy allows only this page's own script and style (by hash) and calls to this origin.
enum BoardPage {
    static func response() -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        headers[HTTPFields.Element.Name("Content-Security-Policy")!] = policy
        headers[HTTPFields.Element.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPFields.Element.Name("Referrer-Policy")!] = "no-referrer"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static let policy: String = {
        func hash(_ text: String) -> String { "'sha256-\(Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString())'" }
        return "default-src 'none'; script-src \(hash(script)); style-src \(hash(style)); connect-src 'self'; img-src 'self' data:; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }()

    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="dark light">
        <title>Hearth board</title>
        <style>\(style)</style>
        </head>
        <body>
        <header class="top">
          <div><h1 id="today">Hearth</h1><p id="clock" class="clock" aria-live="off"></p></div>
          <div class="next" id="next" aria-live="polite"></div>
          <div class="controls">
            <span id="who" class="who" aria-live="polite"></span>
            <button id="signin" type="button">Sign in</button>
            <button id="signout" type="button" hidden>Sign out</button>
            <button id="night" type="button" aria-pressed="false">Night</button>
          </div>
        </header>
        <p id="status" class="status" role="status"></p>
        <main>
          <section aria-labelledby="h-cal" class="panel wide"><h2 id="h-cal">Calendar</h2><div id="calendar" class="columns"></div></section>
          <section aria-labelledby="h-chores" class="panel"><h2 id="h-chores">Chores</h2><ul id="chores" class="list"></ul>
            <h3>Points</h3><ol id="points" class="list"></ol><h3>Rewards in reach</h3><ul id="rewards" class="list"></ul></section>
          <section aria-labelledby="h-where" class="panel"><h2 id="h-where">Where everyone is</h2><ul id="where" class="list"></ul></section>
          <section aria-labelledby="h-question" class="panel"><h2 id="h-question">Family question</h2><div id="question"></div></section>
          <section aria-labelledby="h-school" class="panel"><h2 id="h-school">School today</h2><ul id="school" class="list"></ul></section>
          <section aria-labelledby="h-shop" class="panel"><h2 id="h-shop">Shopping list</h2><ul id="shopping" class="list"></ul></section>
          <section aria-labelledby="h-ask" class="panel"><h2 id="h-ask">Ask Hearth</h2>
            <form id="ask"><label for="say">Ask or tell Hearth</label>
              <div class="row"><input id="say" name="say" autocomplete="off" placeholder="What's on tomorrow?"><button type="submit">Send</button></div></form>
            <p id="reply" class="reply" aria-live="polite"></p><ul id="options" class="list"></ul></section>
        </main>
        <dialog id="pin-dialog" aria-labelledby="h-pin">
          <form id="pin-form" method="dialog"><h2 id="h-pin">Sign in</h2>
            <label for="pin-member">Who are you?</label><select id="pin-member"></select>
            <label for="pin">PIN</label><input id="pin" type="password" inputmode="numeric" autocomplete="off" maxlength="8">
            <p id="pin-error" class="error" role="alert"></p>
            <div class="row"><button type="submit" id="pin-ok">Sign in</button><button type="button" id="pin-cancel">Cancel</button></div>
          </form>
        </dialog>
        <dialog id="token-dialog" aria-labelledby="h-token">
          <form id="token-form" method="dialog"><h2 id="h-token">Connect this screen</h2>
            <p>Paste a device token from <code>hearth device add --scope read</code>.</p>
            <label for="token">Device token</label><input id="token" autocomplete="off">
            <div class="row"><button type="submit">Connect</button></div>
          </form>
        </dialog>
        <script>\(script)</script>
        </body>
        </html>
        """

    static let style = """
        :root { --bg: #101418; --panel: #1b2229; --text: #f4f6f8; --muted: #c3ccd5; --accent: #ffd166; --bad: #ff8a80; --ok: #9be79b;
                font-size: clamp(16px, 1.45vw, 28px); }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--text); font-family: system-ui, sans-serif; line-height: 1.35; }
        body.night { filter: brightness(0.45); }
        .top { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between; padding: 0.8rem 1.2rem; }
        h1 { margin: 0; font-size: 2rem; } h2 { margin: 0 0 0.5rem; font-size: 1.35rem; color: var(--accent); } h3 { margin: 0.8rem 0 0.3rem; font-size: 1.05rem; }
        .clock { margin: 0; font-size: 1.6rem; font-variant-numeric: tabular-nums; }
        .next { font-size: 1.2rem; }
        .controls { display: flex; gap: 0.5rem; align-items: center; }
        button, input, select { font: inherit; color: var(--text); background: #2b3640; border: 2px solid #6c7d8c; border-radius: 0.5rem; padding: 0.45rem 0.8rem; min-height: 2.75rem; }
        button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        main { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 1rem; padding: 0 1.2rem 1.2rem; }
        .panel { background: var(--panel); border-radius: 0.8rem; padding: 0.8rem 1rem; min-width: 0; }
        .wide { grid-column: 1 / -1; }
        .columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: 0.8rem; }
        .member { border-top: 0.4rem solid var(--c, #888); padding-top: 0.4rem; }
        .member h3 { margin-top: 0; }
        .list { list-style: none; margin: 0; padding: 0; }
        .list li { padding: 0.35rem 0; border-bottom: 1px solid #2f3a44; overflow-wrap: anywhere; }
        .day { color: var(--muted); font-size: 0.9rem; margin-top: 0.4rem; }
        .time { color: var(--muted); font-variant-numeric: tabular-nums; }
        .chore { width: 100%; text-align: left; display: flex; justify-content: space-between; gap: 0.5rem; }
        .overdue { border-color: var(--bad); } .waiting { opacity: 0.8; }
        .status { margin: 0 1.2rem; min-height: 1.2rem; color: var(--muted); }
        .reply { white-space: pre-line; } .error { color: var(--bad); min-height: 1.2rem; }
        .who { color: var(--ok); }
        .row { display: flex; gap: 0.5rem; } .row input { flex: 1; min-width: 0; }
        label { display: block; margin: 0.4rem 0 0.2rem; color: var(--muted); }
        dialog { background: var(--panel); color: var(--text); border: 2px solid #6c7d8c; border-radius: 0.8rem; }
        dialog::backdrop { background: rgba(0, 0, 0, 0.6); }
        @media (max-width: 760px) { main { grid-template-columns: 1fr; } :root { font-size: 17px; } }
        @media (prefers-reduced-motion: reduce) { * { transition: none !important; } }
        """

    static let script = """
        "use strict";
        const colours = ["#4dabf7", "#ff922b", "#69db7c", "#f783ac", "#b197fc", "#ffd43b", "#38d9a9", "#ffa8a8"];
        const state = { token: null, session: null, member: null, members: [], calendar: null, chores: null, idle: null, askSession: "board-" + Math.random().toString(36).slice(2) };
        const $ = (id) => document.getElementById(id);
        function el(tag, text, cls) { const e = document.createElement(tag); if (text != null) e.textContent = String(text); if (cls) e.className = cls; return e; }
        function setStatus(text) { $("status").textContent = text; }

        function readToken() {
          const hash = new URLSearchParams(location.hash.slice(1));
          const fromHash = hash.get("token");
          if (fromHash) { localStorage.setItem("hearthToken", fromHash); history.replaceState(null, "", location.pathname); }
          return fromHash || localStorage.getItem("hearthToken");
        }

        async function api(method, path, body) {
          const headers = { "Authorization": "Bearer " + state.token };
          if (state.session) headers["X-Hearth-Member-Session"] = state.session;
          if (body !== undefined) headers["Content-Type"] = "application/json";
          const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
          let data = null; try { data = await response.json(); } catch (e) { data = null; }
          if (response.status === 401 && state.session) { signedOut("Your sign-in lapsed."); }
          return { status: response.status, data };
        }

        // Times in the family's zone, as the browser's locale writes them ("5:00 PM", "17:00").
        const time = (iso) => new Date(iso).toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit", timeZone: (state.calendar && state.calendar.zone) || undefined });
        function dayLabel(iso, index) {
          const d = new Date(iso.slice(0, 10) + "T12:00:00");
          return index === 0 ? "Today" : index === 1 ? "Tomorrow" : d.toLocaleDateString(undefined, { weekday: "long" });
        }

        async function loadCalendar() {
          const { status, data } = await api("GET", "/v1/views/calendar?days=3");
          if (status !== 200) return setStatus("The calendar could not be read (" + status + ").");
          state.calendar = data; state.members = data.members;
          // The family's day (the service's clock and zone), not the tablet's.
          $("today").textContent = new Date(data.from.slice(0, 10) + "T12:00:00").toLocaleDateString(undefined, { weekday: "long", day: "numeric", month: "long" });
          fillMembers();
          const box = $("calendar"); box.replaceChildren();
          const days = [0, 1, 2].map((i) => { const d = new Date(data.from.slice(0, 10) + "T12:00:00"); d.setDate(d.getDate() + i);
            return d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0"); });
          data.members.forEach((member, index) => {
            const column = el("div", null, "member"); column.style.setProperty("--c", colours[index % colours.length]);
            column.setAttribute("data-member", member.name);
            column.append(el("h3", member.name));
            days.forEach((day, i) => {
              const mine = data.events.filter((e) => e.attendees.includes(member.name) && e.start.slice(0, 10) === day);
              if (!mine.length) return;
              column.append(el("div", dayLabel(day, i), "day"));
              const list = el("ul", null, "list");
              for (const e of mine) { const li = el("li"); li.append(el("span", e.all_day ? "All day " : time(e.start) + " ", "time"), el("span", e.title)); list.append(li); }
              column.append(list);
            });
            if (column.children.length === 1) column.append(el("p", "Nothing on", "day"));
            box.append(column);
          });
          showNext();
        }

        function showNext() {
          if (!state.calendar) return;
          const now = Date.now();
          const next = state.calendar.events.filter((e) => !e.all_day && Date.parse(e.start) > now).sort((a, b) => Date.parse(a.start) - Date.parse(b.start))[0];
          if (!next) { $("next").textContent = ""; return; }
          const minutes = Math.round((Date.parse(next.start) - now) / 60000);
          const wait = minutes < 60 ? minutes + " min" : minutes < 1440 ? Math.floor(minutes / 60) + " h " + (minutes % 60) + " min" : Math.floor(minutes / 1440) + " days";
          $("next").textContent = "Next: " + next.title + " (" + next.attendees.join(", ") + ") in " + wait;
        }

        async function loadChores() {
          const { status, data } = await api("GET", "/v1/views/chores");
          if (status !== 200) return;
          state.chores = data;
          const list = $("chores"); list.replaceChildren();
          for (const chore of data.chores) {
            const li = el("li");
            const button = el("button", null, "chore" + (chore.status === "overdue" ? " overdue" : chore.status === "pending_review" ? " waiting" : ""));
            button.type = "button"; button.setAttribute("data-chore", chore.id);
            button.append(el("span", chore.title + " (" + chore.assignees.join(" or ") + ")"),
                          el("span", chore.status === "pending_review" ? "waiting for a parent" : chore.points + " pts" + (chore.status === "overdue" ? ", late" : "")));
            button.setAttribute("aria-label", "Mark " + chore.title + " done, " + chore.points + " points, for " + chore.assignees.join(" or "));
            button.disabled = chore.status === "pending_review";
            button.addEventListener("click", () => tapChore(chore));
            li.append(button); list.append(li);
          }
          if (!data.chores.length) list.append(el("li", "No chores due"));
          const points = $("points"); points.replaceChildren();
          for (const row of data.points) { const li = el("li", row.rank + ". " + row.name + (row.balance == null ? "" : ": " + row.balance + " points")); li.setAttribute("data-points", row.name); points.append(li); }
          const rewards = $("rewards"); rewards.replaceChildren();
          for (const row of data.points) {
            if (row.balance == null) continue;
            const reach = data.rewards.filter((r) => r.cost <= row.balance);
            if (reach.length) rewards.append(el("li", row.name + ": " + reach.map((r) => r.title).join(", ")));
          }
        }

        async function tapChore(chore) {
          if (!state.session) { openSignIn(chore.assignees[0]); setStatus("Sign in to tick off a chore."); return; }
          const { status, data } = await api("POST", "/v1/chores/" + encodeURIComponent(chore.id) + "/complete");
          if (status === 200) setStatus(data.awaiting_review ? "Done: a parent will check it." : "Done! +" + data.points_awarded + " points, " + data.balance + " now.");
          else setStatus((data && data.error && data.error.message) || "That didn't work (" + status + ").");
          touch(); loadChores();
        }

        async function loadWhere() {
          const { status, data } = await api("GET", "/v1/views/locations");
          if (status !== 200) return;
          const list = $("where"); list.replaceChildren();
          for (const m of data.members) {
            let text = m.name + ": ";
            if (m.state === "located") text += m.at ? "at " + m.at : m.near ? "near " + m.near : "out";
            else text += m.state === "unknown" ? "not known" : "not shared";
            if (m.stale) text += " (a while ago)";
            list.append(el("li", text));
          }
        }

        async function loadSchool() {
          const { status, data } = await api("GET", "/v1/views/timetable");
          if (status !== 200) return;
          const list = $("school"); list.replaceChildren();
          for (const l of data.lessons) list.append(el("li", time(l.start) + " " + l.name + ": " + l.subject + (l.room ? ", " + l.room : "")));
          if (!data.lessons.length) list.append(el("li", "No school today"));
        }

        async function loadQuestion() {
          const { status, data } = await api("GET", "/v1/views/question");
          if (status !== 200) return;
          const box = $("question"); box.replaceChildren();
          const q = data.question;
          if (!q) { box.append(el("p", "No open question")); return; }
          box.append(el("p", q.from + " asks: " + q.text, "asked"));
          const list = el("ul", null, "list");
          for (const a of q.answered) list.append(el("li", "✓ " + a.name + (a.answer ? ": " + a.answer : "")));
          for (const name of q.waiting) list.append(el("li", "… " + name + " hasn't answered"));
          box.append(list);
          // Signed in and not answered yet: answer with a tap (a bare yes or no goes to the family question).
          if (state.session && q.waiting.includes(data.viewer)) {
            const row = el("div", null, "row");
            for (const word of ["Yes", "No"]) {
              const b = el("button", word); b.type = "button"; b.setAttribute("aria-label", word + " to " + q.from + "'s question");
              b.addEventListener("click", async () => { const r = await api("POST", "/v1/turns", { text: word.toLowerCase(), session: state.askSession });
                $("reply").textContent = (r.data && r.data.reply) || ""; touch(); loadQuestion(); });
              row.append(b);
            }
            box.append(row);
          }
        }

        async function loadShopping() {
          const { status, data } = await api("GET", "/v1/views/shopping");
          if (status !== 200) return;
          const list = $("shopping"); list.replaceChildren();
          for (const l of data.lists) {
            if (l.name !== "shopping") { if (!l.items.length) continue; list.append(el("li", l.name.charAt(0).toUpperCase() + l.name.slice(1) + " list", "day")); }
            for (const item of l.items) { const li = el("li", item.name + (item.added_by ? " (" + item.added_by + ")" : "")); li.setAttribute("data-item", item.name); list.append(li); }
          }
          if (!data.lists.some((l) => l.items.length)) list.append(el("li", "Nothing needed"));
        }

        const loaders = { calendar: loadCalendar, chores: loadChores, locations: loadWhere, timetable: loadSchool, messages: loadQuestion, shopping: loadShopping };
        function loadAll() { return Promise.all(Object.values(loaders).map((f) => f())); }

        async function listen() {
          for (;;) {
            try {
              const response = await fetch("/v1/events/stream", { headers: { "Authorization": "Bearer " + state.token } });
              if (response.status !== 200) throw new Error("stream " + response.status);
              setStatus("");
              const reader = response.body.getReader(); const decoder = new TextDecoder(); let buffer = "";
              for (;;) {
                const { value, done } = await reader.read(); if (done) break;
                buffer += decoder.decode(value, { stream: true });
                let end;
                while ((end = buffer.indexOf("\\n\\n")) >= 0) {
                  const block = buffer.slice(0, end); buffer = buffer.slice(end + 2);
                  const kind = (block.match(/^event: (.*)$/m) || [])[1]; const data = (block.match(/^data: (.*)$/m) || [])[1];
                  if (kind === "change" && data) { const area = JSON.parse(data).area; if (loaders[area]) loaders[area](); else if (area === "family") loadAll(); }
                }
              }
            } catch (e) { setStatus("Reconnecting…"); }
            await new Promise((r) => setTimeout(r, 2000));
            loadAll();
          }
        }

        function fillMembers() {
          const select = $("pin-member"); const chosen = select.value; select.replaceChildren();
          for (const m of state.members) { const o = el("option", m.name); o.value = m.name; select.append(o); }
          if (chosen) select.value = chosen;
        }
        function openSignIn(name) { if (name) $("pin-member").value = name; $("pin").value = ""; $("pin-error").textContent = ""; $("pin-dialog").showModal(); $("pin").focus(); }
        function touch() { clearTimeout(state.idle); if (state.session) state.idle = setTimeout(() => signOut("Signed out after a quiet minute."), 90000); }
        function signedOut(text) { state.session = null; state.member = null; $("who").textContent = ""; $("signin").hidden = false; $("signout").hidden = true; if (text) setStatus(text); loadChores(); loadQuestion(); }
        async function signOut(text) { if (state.session) await api("POST", "/v1/board/sign-out"); signedOut(text || "Signed out."); }

        $("pin-form").addEventListener("submit", async (event) => {
          event.preventDefault();
          const member = $("pin-member").value;
          const { status, data } = await api("POST", "/v1/board/sign-in", { member, pin: $("pin").value });
          $("pin").value = "";
          if (status !== 200) { $("pin-error").textContent = (data && data.error && data.error.message) || "That didn't work."; return; }
          state.session = data.session; state.member = data.member;
          $("who").textContent = "Hi, " + data.member; $("signin").hidden = true; $("signout").hidden = false;
          $("pin-dialog").close(); setStatus("Signed in as " + data.member + "."); touch(); loadChores(); loadQuestion();
        });
        $("pin-cancel").addEventListener("click", () => $("pin-dialog").close());
        $("signin").addEventListener("click", () => openSignIn());
        $("signout").addEventListener("click", () => signOut());
        $("night").addEventListener("click", () => { const on = document.body.classList.toggle("night"); $("night").setAttribute("aria-pressed", String(on)); });
        $("ask").addEventListener("submit", async (event) => {
          event.preventDefault();
          const text = $("say").value.trim(); if (!text) return;
          const { data } = await api("POST", "/v1/turns", { text, session: state.askSession });
          $("say").value = ""; touch();
          const reply = (data && data.reply) || "Sorry, that didn't work.";
          $("reply").textContent = reply;
          const options = $("options"); options.replaceChildren();
          for (const o of (data && data.options) || []) {
            const b = el("button", o.number + ". " + o.label); b.type = "button";
            b.addEventListener("click", () => { $("say").value = String(o.number); $("ask").requestSubmit(); });
            const li = el("li"); li.append(b); options.append(li);
          }
          if (data && data.speak && "speechSynthesis" in window) { try { speechSynthesis.speak(new SpeechSynthesisUtterance(data.speak)); } catch (e) {} }
        });
        $("token-form").addEventListener("submit", () => { const t = $("token").value.trim(); if (t) { localStorage.setItem("hearthToken", t); location.reload(); } });

        function tick() {
          const now = new Date();
          $("clock").textContent = now.toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit", timeZone: (state.calendar && state.calendar.zone) || undefined });
          const hour = now.getHours(); const night = hour >= 21 || hour < 6;
          if (night !== state.night) { state.night = night; document.body.classList.toggle("night", night); $("night").setAttribute("aria-pressed", String(night)); }
          showNext();
        }

        state.token = readToken();
        tick(); setInterval(tick, 30000);
        if (!state.token) { $("token-dialog").showModal(); }
        else { loadAll().then(() => { document.body.setAttribute("data-ready", "1"); }); listen(); }
        """
}
