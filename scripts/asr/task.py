"""Spoken task success: whether a student who speaks is understood as well
as one who types (docs/asr.md, scripts/asr/eval.py).

A character error rate says how far a transcript is from what was said,
not whether the site still does the right thing with it: 北京大学计算机系
heard as 北京大学计算机 costs a character and nothing else, 浙大 heard as
这带 costs two and the whole request. So each request of a set is sent
the way a student's goes: the recording to the site's own
`POST /api/v1/transcribe` (the site's prompt for the page, its clean-up of
the recognizer's text), the text it answers as the first chat turn
(`POST /api/v1/chat`), and the reply is judged on what the student asked
for: the right school and major in the form, or the right advisor's page
opened. The text as written goes the same way, so the spoken figure stands
beside the typed one; the language side and the recognizer are measured
together, and either can be changed and the same command run again.

A request set is JSONL, one request a line (`//` lines are comments):

    {"id": "pku-cs", "text": "我想考北京大学计算机系",
     "school": "北京大学", "major": "计算机科学与技术", "keys": ["北京大学"]}
    {"id": "open-2", "text": "打开第二个",
     "page": {"school": "北京大学", "major": "计算机科学与技术"}, "rank": 2}
    {"id": "by-name", "text": "王建国老师怎么样",
     "page": {"school": "北京大学", "major": "计算机科学与技术"}, "advisor": "王建国"}

A row without `page` is a first request on the home page: understood when
the reply acts on `school` and `major` as given (`major: null`: none said):
it fills them into the form, or answers a question about them from the
site's data. A row with `page` is said on that ranking (its first page of
advisors is what the panel sends as the page's context, and the names the
recognizer is prompted with): understood when the reply opens the page of the
advisor named by `advisor` (or the one at `rank` on that page), or, opening
none, answers about that advisor by name. A wrong silent
fill is a school or major in the reply's form that is not the one asked
for, without a question about it (chips for that field); a wrong open, an
advisor's page opened that is not the one asked for.
"""

import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load_requests(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("//"):
                continue
            row = json.loads(line)
            if not row.get("id") or not row.get("text"):
                raise ValueError(f"{path}:{n}: every request needs an id and a text")
            if "page" in row:
                if not ("advisor" in row or "rank" in row):
                    raise ValueError(f"{path}:{n}: a request on a page needs advisor or rank")
            elif "school" not in row:
                raise ValueError(f"{path}:{n}: a first request needs school (and major)")
            row.setdefault("keys", [])
            rows.append(row)
    ids = [r["id"] for r in rows]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{path}: ids repeat")
    return rows


# ---------------------------------------------------------------- the site

def newest_source(root):
    """When the code the site is built from last changed."""
    newest = 0.0
    for top in ("server/src", "server/lexicons", "server/migrations", "app/src", "prompts"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in files:
                newest = max(newest, os.path.getmtime(os.path.join(folder, name)))
    return newest


def site_command(root):
    """`ASR_SITE_SERVER`, else the newer of the release server (the last
    `make build`) and the debug one, if it is newer than the code; else
    `cargo run` (which builds the debug one first). A site built before the
    last change would measure the language side as it was: after a merge
    the eval must not score the old one."""
    if os.environ.get("ASR_SITE_SERVER"):
        return [os.environ["ASR_SITE_SERVER"]]
    built = [os.path.join(root, "target", b, "server") for b in ("release", "debug")]
    built = [p for p in built if os.access(p, os.X_OK)]
    if built:
        path = max(built, key=os.path.getmtime)
        if os.path.getmtime(path) >= newest_source(root):
            return [path]
    return ["cargo", "run", "-q", "-p", "server", "--"]


class Site:
    """The site's server in a child process on a fresh SQLite database with
    the demo data, its recognizer at `asr_base_url`; no language model
    (the embedded planner, deterministic)."""

    def __init__(self, root, work, name, asr_base_url=None, command=None):
        self.port = free_port()
        self.dir = os.path.join(work, f"site-{name}")
        os.makedirs(self.dir, exist_ok=True)
        db = os.path.join(self.dir, "eval.db")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("LLM_", "ASR_", "DATABASE_"))}
        env.update({
            "DATABASE_URL": f"sqlite://{db}",
            "DEMO_DATA": "on",
            "LEPTOS_SITE_ADDR": f"127.0.0.1:{self.port}",
            "LEPTOS_SITE_ROOT": os.path.join(root, "target", "site"),
            "CHAT_TURNS_PER_MINUTE": "100000",
            "TRANSCRIPTIONS_PER_MINUTE": "100000",
            # A loaded two-core machine: a slow answer is measured, not refused.
            "ASR_TIMEOUT_SECS": "60",
            "RUST_LOG": "warn",
        })
        if asr_base_url:
            env["ASR_BASE_URL"] = asr_base_url
        self.log = open(os.path.join(self.dir, "server.log"), "w")
        self.proc = subprocess.Popen(command or site_command(root), cwd=root, env=env,
                                     stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 900  # `cargo run` may build first
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the site exited: see {self.log.name}")
            try:
                urllib.request.urlopen(f"{self.url}/healthz", timeout=2)
                return
            except OSError:
                time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"the site did not answer /healthz: see {self.log.name}")

    def stop(self):
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.log.close()

    def get(self, path, **query):
        url = f"{self.url}{path}"
        if query:
            url += "?" + urllib.parse.urlencode(query)
        with urllib.request.urlopen(url, timeout=60) as resp:
            return json.load(resp)

    def chat(self, text, page_context):
        body = json.dumps({"message": text, "page_context": page_context},
                          ensure_ascii=False).encode()
        req = urllib.request.Request(f"{self.url}/api/v1/chat", data=body,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as resp:
                return json.load(resp)
        except urllib.error.HTTPError as err:
            return {"error": {"code": f"http {err.code}", "message": err.read().decode()}}

    def transcribe(self, wav, page_context):
        """The recording through the site, as the panel sends it: the text
        and the seconds it took."""
        boundary = uuid.uuid4().hex
        body = bytearray()
        body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"page_context\"\r\n\r\n"
                 f"{json.dumps(page_context, ensure_ascii=False)}\r\n").encode()
        body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"audio\"; "
                 f"filename=\"recording\"\r\nContent-Type: audio/wav\r\n\r\n").encode()
        body += open(wav, "rb").read() + f"\r\n--{boundary}--\r\n".encode()
        req = urllib.request.Request(
            f"{self.url}/api/v1/transcribe", data=bytes(body),
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
        started = time.monotonic()
        try:
            with urllib.request.urlopen(req, timeout=120) as resp:
                text = json.load(resp).get("text", "")
        except urllib.error.HTTPError as err:
            text = f"<{err.code}: {err.read().decode()[:200]}>"
        return text, time.monotonic() - started


# ---------------------------------------------------------------- pages

HOME = {"current_page": "home", "visible_advisors": [], "selected_advisor": None,
        "ranking_filters": None}


class Pages:
    """The page context of each request, from the site's own ranking."""

    def __init__(self, site):
        self.site = site
        self.rankings = {}

    def ranking(self, school, major):
        key = (school, major)
        if key not in self.rankings:
            self.rankings[key] = self.site.get("/api/v1/advisors", school=school, major=major)
        return self.rankings[key]

    def context(self, row):
        page = row.get("page")
        if not page:
            return HOME
        ranking = self.ranking(page["school"], page["major"])
        return {
            "current_page": "ranking",
            "visible_advisors": [
                {"id": str(a["id"]), "name": a["name"], "title": a.get("title"),
                 "rating": a.get("rating"), "rank": a.get("rank")}
                for a in ranking["advisors"]
            ],
            "selected_advisor": None,
            "ranking_filters": {"school": page["school"], "major": page["major"]},
        }

    def expected_advisor(self, row):
        """The advisor a request on a page asks for: (id, name), or None
        when the ranking does not show it (the set is wrong)."""
        page = row["page"]
        advisors = self.ranking(page["school"], page["major"])["advisors"]
        for a in advisors:
            if ("rank" in row and a.get("rank") == row["rank"]) or a["name"] == row.get("advisor"):
                return str(a["id"]), a["name"]
        return None

    def check(self, rows):
        """Whether every request's expectation exists in the demo data."""
        problems = []
        majors_of = {}
        for row in rows:
            if "page" in row:
                if self.expected_advisor(row) is None:
                    problems.append(f"{row['id']}: no advisor {row.get('advisor') or row.get('rank')} "
                                    f"on the first page of {row['page']}")
                continue
            school, major = row["school"], row.get("major")
            if major is None:
                continue
            if school not in majors_of:
                try:
                    majors_of[school] = {m["name"] for m in
                                         self.site.get("/api/v1/majors", school=school)["majors"]}
                except urllib.error.HTTPError:
                    majors_of[school] = set()
            if major not in majors_of[school]:
                problems.append(f"{row['id']}: {school} has no {major} in the demo data")
        return problems


# ---------------------------------------------------------------- judging

def judge(row, reply, pages):
    """What the reply did with one request, against what was asked."""
    form = reply.get("form") or {}
    calls = reply.get("tool_calls") or []
    asked = {c.get("params", {}).get("target_field") for c in calls
             if c.get("tool") == "present_options"}
    opened = [c.get("params", {}) for c in calls if c.get("tool") == "get_advisor_detail"]
    voice = reply.get("voice_response", "")
    # The school and major the turn acted on: the form it filled, or else
    # the ones a question about them was answered with (「武汉大学的金融学
    # 怎么样」 is answered from the site's data without filling the form).
    took = {"school": form.get("school"), "major": form.get("major")}
    if took["school"] is None:
        for c in calls:
            params = c.get("params") or {}
            if params.get("school"):
                took = {"school": params.get("school"), "major": params.get("major")}
                break
    got = {"school": took["school"], "major": took["major"],
           "form": [form.get("school"), form.get("major")],
           "opened": [o.get("advisor_name") or o.get("advisor_id") for o in opened],
           "voice": voice}
    if reply.get("error"):
        got["error"] = reply["error"]
    out = {"got": got, "understood": False, "wrong_fills": [], "wrong_open": False}
    if "page" in row:
        expected = pages.expected_advisor(row)
        hit = expected is not None and any(
            str(o.get("advisor_id")) == expected[0] or o.get("advisor_name") == expected[1]
            for o in opened)
        # 「高军老师人怎么样」 is answered about him without opening his page.
        told = expected is not None and not opened and expected[1] in voice
        out["understood"] = hit or told
        out["wrong_open"] = bool(opened) and not hit
        return out
    want = {"school": row["school"], "major": row.get("major")}
    out["understood"] = all(took.get(k) == v for k, v in want.items())
    for field, value in want.items():
        if form.get(field) is not None and form.get(field) != value and field not in asked:
            out["wrong_fills"].append(f"{field}={form.get(field)}")
    return out


def summarise(judged):
    n = len(judged)
    return {
        "n": n,
        "understood": sum(j["understood"] for j in judged),
        "wrong_fills": sum(bool(j["wrong_fills"]) for j in judged),
        "wrong_opens": sum(j["wrong_open"] for j in judged),
    }
