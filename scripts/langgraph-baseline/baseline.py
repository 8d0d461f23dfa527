"""The LangGraph side of the chat-turn comparison (the claim it checks: "about
3.7 times faster than a LangGraph ReAct agent with a zero-latency scripted model
on the same tools"). Run by run.sh (`make bench-langgraph`); our side is
`make bench` (server/benches/agent.rs).

What makes it a fair baseline:
- the agent is LangGraph's own `create_react_agent` (model node, ToolNode,
  the tools-condition loop), its state checkpointed by `SqliteSaver` into a
  SQLite file after every step (our turn stores the session in SQLite too;
  both with WAL and synchronous=NORMAL);
- the model costs nothing: a scripted BaseChatModel that returns, for each
  student message, the tool calls our embedded planner makes for it (same
  tools, same number: see SCRIPT), then a fixed short Chinese reply;
- the tools are real: SQL over the same demo database the site serves
  (the statements of server/src/store/*.rs: a ranking page ordered by the
  stored Bayesian score, an advisor's detail with its rank, the first page
  of reviews, the whole pair for the recommender), read per call, no cache;
- the same 8 messages as agent.rs's MESSAGES, in order, 40 conversations
  (each its own thread_id) after one warm-up conversation not counted, and
  the same percentile arithmetic and output format.
It measures in process (no HTTP), which favours LangGraph.
"""

import json
import os
import sqlite3
import sys
import tempfile
import threading
import time
import warnings
from importlib.metadata import version
from typing import Annotated, Optional

from typing_extensions import NotRequired, TypedDict

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import InjectedToolCallId, tool
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph.message import add_messages
from langgraph.managed import RemainingSteps
from langgraph.types import Command

with warnings.catch_warnings():  # deprecated in 1.x in favour of langchain.agents
    warnings.simplefilter("ignore")
    from langgraph.prebuilt import create_react_agent

def bench_messages():
    """The student messages of server/benches/agent.rs (its `MESSAGES`), read
    from that file, so both sides of the comparison always say the same."""
    import re
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../server/benches/agent.rs")
    with open(path, encoding="utf-8") as f:
        block = re.search(r"const MESSAGES: &\[&str\] = &\[(.*?)\];", f.read(), re.S).group(1)
    return re.findall(r'"([^"]*)"', block)


MESSAGES = bench_messages()
CONVERSATIONS = 40

# ---------------------------------------------------------------- data ----
DB = sys.argv[1] if len(sys.argv) > 1 else "data/langgraph-demo.db"
_local = threading.local()  # ToolNode runs a message's calls in threads


def db() -> sqlite3.Connection:
    if not hasattr(_local, "conn"):
        _local.conn = sqlite3.connect(f"file:{DB}?mode=ro", uri=True)
        _local.conn.execute("PRAGMA cache_size = -16384")  # as server/src/db.rs
    return _local.conn


def rows(sql: str, *args) -> list:
    return db().execute(sql, args).fetchall()


def in_list(ids) -> str:
    return ",".join(str(int(i)) for i in ids) or "NULL"


# The catalog is held in memory, as the site's `Catalog` is.
SCHOOLS = dict(rows("SELECT name, id FROM schools"))
MAJORS = dict(rows("SELECT name, id FROM majors"))
WANTED_TAGS = {  # server/lexicons/preference_tags.txt (the values used here)
    "温和": ({"温和", "平易近人", "耐心", "人品好"}, {"严格", "push", "要求高"}),
    "充足": ({"经费充足", "补助高"}, {"经费紧张"}),
}
ADVISOR = "id, name, title, school_id, major_id, bio, review_count, sum_overall, score_overall"


def pair(school: str, major: str) -> tuple:
    if school not in SCHOOLS or major not in MAJORS:
        raise ValueError(f"没有这个学校或专业：{school} {major}")
    return SCHOOLS[school], MAJORS[major]


def directions(ids) -> dict:
    out = {}
    for aid, d in rows(f"SELECT advisor_id, direction FROM advisor_directions "
                       f"WHERE advisor_id IN ({in_list(ids)}) ORDER BY advisor_id, position"):
        out.setdefault(aid, []).append(d)
    return out


def tags(ids) -> dict:
    out = {}
    for aid, tag, n in rows(f"SELECT advisor_id, tag, count FROM advisor_tags "
                            f"WHERE advisor_id IN ({in_list(ids)}) ORDER BY advisor_id, count DESC, tag"):
        out.setdefault(aid, []).append((tag, n))
    return out


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)


# --------------------------------------------------------------- tools ----
def merge(old: Optional[dict], new: dict) -> dict:
    return {**(old or {}), **{k: v for k, v in new.items() if v is not None}}


class State(TypedDict):
    messages: Annotated[list, add_messages]
    remaining_steps: NotRequired[RemainingSteps]
    form: NotRequired[Annotated[dict, merge]]  # checkpointed with the thread


@tool
def update_form(tool_call_id: Annotated[str, InjectedToolCallId], school: str = None, major: str = None,
                research_direction: str = None, personality: str = None, funding: str = None) -> Command:
    """填写或修改检索表单（学校、专业、研究方向、导师性格、经费）。"""
    if school and major:
        pair(school, major)
    elif school and school not in SCHOOLS:
        raise ValueError(f"没有这个学校：{school}")
    form = dict(school=school, major=major, research_direction=research_direction,
                personality=personality, funding=funding)
    return Command(update={"form": form, "messages": [ToolMessage("表单已更新", tool_call_id=tool_call_id)]})


@tool
def update_ranking(school: str, major: str) -> str:
    """按综合评分（贝叶斯平均）排出某校某专业导师的第一页。"""
    s, m = pair(school, major)
    total = rows("SELECT advisors FROM pair_stats WHERE school_id = ? AND major_id = ?", s, m)
    page = rows(f"SELECT {ADVISOR} FROM advisors WHERE school_id = ? AND major_id = ? "
                "ORDER BY score_overall DESC, review_count DESC, id LIMIT 20 OFFSET 0", s, m)
    ids = [a[0] for a in page]
    dirs, tg = directions(ids), tags(ids)
    return dumps({"school": school, "major": major, "total": total[0][0] if total else 0, "advisors": [
        {"id": str(a[0]), "name": a[1], "title": a[2], "rank": i + 1, "review_count": a[6],
         "rating": round(a[7] / a[6], 1) if a[6] else 0, "score": round(a[8], 1),
         "top_tags": [t for t, _ in tg.get(a[0], [])[:3]], "directions": dirs.get(a[0], [])}
        for i, a in enumerate(page)]})


@tool
def recommend_advisors(school: str, major: str, research_direction: str = None,
                       personality: str = None, funding: str = None) -> str:
    """按研究方向、评价标签和评分，为学生推荐某校某专业最合适的导师。"""
    s, m = pair(school, major)
    every = rows(f"SELECT {ADVISOR} FROM advisors WHERE school_id = ? AND major_id = ? "
                 "ORDER BY score_overall DESC, review_count DESC, id", s, m)
    ids = [a[0] for a in every]
    dirs, tg = directions(ids), tags(ids)
    weights = {"direction": 40, "personality": 20, "funding": 12, "rating": 16}  # recommend_weights.conf
    scored = []
    for a in every:
        n, counts = max(a[6], 1), dict(tg.get(a[0], []))
        share = lambda names: sum(counts.get(t, 0) for t in names) / n
        parts = {"rating": (a[8] - 1) / 4}
        if research_direction:
            d = dirs.get(a[0], [])
            parts["direction"] = 1.0 if d[:1] == [research_direction] else 0.8 if research_direction in d else 0
        for key, value in (("personality", personality), ("funding", funding)):
            if value in WANTED_TAGS:
                yes, no = WANTED_TAGS[value]
                parts[key] = max(0.0, min(1.0, share(yes) - share(no) / 2))
        score = 100 * sum(weights[k] * v for k, v in parts.items()) / sum(weights[k] for k in parts)
        scored.append((-score, -a[6], a[0], a, round(score, 1)))
    scored.sort()
    best = -scored[0][0] if scored else 0
    chosen = [x for i, x in enumerate(scored[:3]) if i == 0 or -x[0] >= 0.8 * best]
    return dumps({"school": school, "major": major, "advisors": [
        {"id": str(a[0]), "name": a[1], "title": a[2], "score": sc, "review_count": a[6],
         "directions": dirs.get(a[0], [])} for _, _, _, a, sc in chosen]})


@tool
def get_advisor_detail(advisor_id: str) -> str:
    """一位导师的详情：简介、研究方向、各维度评分、排名和评价标签。"""
    found = rows(f"SELECT {ADVISOR}, sum_academic, sum_funding, sum_relationship, sum_prospects, "
                 "hist_1, hist_2, hist_3, hist_4, hist_5, recommend_yes, recommend_answered "
                 "FROM advisors WHERE id = ?", int(advisor_id))
    if not found:
        raise ValueError("没有找到这位导师。")
    a = found[0]
    (before,) = rows("SELECT (SELECT COUNT(*) FROM advisors WHERE school_id = ?1 AND major_id = ?2 AND score_overall > ?3)"
                     " + (SELECT COUNT(*) FROM advisors WHERE school_id = ?1 AND major_id = ?2 AND score_overall = ?3"
                     " AND review_count > ?4) + (SELECT COUNT(*) FROM advisors WHERE school_id = ?1 AND major_id = ?2"
                     " AND score_overall = ?3 AND review_count = ?4 AND id < ?5)", a[3], a[4], a[8], a[6], a[0])[0]
    (total,) = rows("SELECT advisors FROM pair_stats WHERE school_id = ? AND major_id = ?", a[3], a[4])[0]
    n = a[6]
    avg = lambda v: round(v / n, 1) if n else None
    return dumps({"id": str(a[0]), "name": a[1], "title": a[2], "bio": a[5], "review_count": n,
                  "averages": {"overall": avg(a[7]), "academic": avg(a[9]), "funding": avg(a[10]),
                               "relationship": avg(a[11]), "prospects": avg(a[12])},
                  "score": round(a[8], 1), "rank": before + 1, "rank_total": total,
                  "histogram": list(a[13:18]), "recommend": {"yes": a[18], "answered": a[19]},
                  "directions": directions([a[0]]).get(a[0], []),
                  "tags": [{"tag": t, "count": c} for t, c in tags([a[0]]).get(a[0], [])]})


@tool
def get_advisor_reviews(advisor_id: str, advisor_name: str = None) -> str:
    """一位导师最新的学生评价（第一页）和评价总数。"""
    found = rows("SELECT review_count, sum_overall FROM advisors WHERE id = ?", int(advisor_id))
    if not found:
        raise ValueError("没有找到这位导师。")
    (total,) = rows("SELECT COUNT(*) FROM reviews r WHERE r.advisor_id = ? AND r.status = 'published'",
                    int(advisor_id))[0]
    page = rows("SELECT r.id, r.academic, r.funding, r.relationship, r.prospects, r.overall, r.text, r.relation, "
                "r.created_at, r.recommend, r.helpful_count, "
                "(SELECT group_concat(tag, ',') FROM review_tags t WHERE t.review_id = r.id), "
                "CASE WHEN EXISTS (SELECT 1 FROM review_votes v WHERE v.review_id = r.id AND v.client_key = '') "
                "THEN 1 ELSE 0 END FROM reviews r WHERE r.advisor_id = ? AND r.status = 'published' "
                "ORDER BY r.created_at DESC, r.id DESC LIMIT 10 OFFSET 0", int(advisor_id))
    n, s = found[0]
    keys = ("id", "academic", "funding", "relationship", "prospects", "overall", "text", "relation",
            "created_at", "recommend", "helpful", "tags", "voted")
    return dumps({"advisor_id": advisor_id, "count": total, "average": round(s / n, 1) if n else None,
                  "reviews": [dict(zip(keys, r)) for r in page]})


@tool
def present_options(question: str, options: list[str], target_field: str) -> str:
    """在对话框下方给出可点选的选项（只作用于页面）。"""
    return "选项已显示"


TOOLS = [update_form, update_ranking, recommend_advisors, get_advisor_detail, get_advisor_reviews,
         present_options]


# --------------------------------------------------------------- model ----
def last_result(messages, name: str) -> dict:
    """The newest result of tool `name` in the conversation, as a model reads it."""
    return json.loads(next(m.content for m in reversed(messages) if isinstance(m, ToolMessage) and m.name == name))


PKU, ZJU, THU = "北京大学", "浙江大学", "清华大学"
CS, SE = "计算机科学与技术", "软件工程"
# Per student message: the calls our embedded planner makes for it (observed
# on `POST /api/v1/chat` with the page context applied, as agent.rs does),
# then the reply. "第一个导师怎么样？" is answered by our planner from
# `Site::advisor_detail` inside the planner (no call on the wire): here that
# read is `get_advisor_detail`. "什么是985" and "你好" call nothing.
SCRIPT = {
    MESSAGES[0]: ([("update_form", {"school": PKU, "major": CS}),
                   ("update_ranking", {"school": PKU, "major": CS}),
                   ("present_options", {"question": "感兴趣的研究方向", "target_field": "research_direction",
                                        "options": ["机器学习", "多模态学习", "推荐系统", "深度学习"]})],
                  "好的，北京大学计算机系。导师已筛选好，你对研究方向或导师风格有偏好吗？"),
    MESSAGES[1]: ([("update_form", {"research_direction": "机器学习", "personality": "温和"}),
                   ("recommend_advisors", {"school": PKU, "major": CS, "research_direction": "机器学习",
                                           "personality": "温和"}),
                   ("present_options", {"question": "想读哪种学位？", "target_field": "degree_type",
                                        "options": ["学硕", "专硕", "直博"]})],
                  "根据你的需求，我推荐张三教授，主要研究机器学习，学生评价温和。"),
    MESSAGES[2]: ([("get_advisor_detail",
                    lambda ms: {"advisor_id": last_result(ms, "update_ranking")["advisors"][0]["id"]})],
                  "张三教授主要研究机器学习，学生评价4.5分，大家评价温和、负责。"),
    MESSAGES[3]: ([("get_advisor_reviews", lambda ms: {
                        "advisor_id": last_result(ms, "get_advisor_detail")["id"],
                        "advisor_name": last_result(ms, "get_advisor_detail")["name"]})],
                  "张三的学生评价很好，平均4.5分，共49条。"),
    MESSAGES[4]: ([], "985工程高校共39所，是国家重点建设的顶尖大学。它们都属于211，整体实力最强。"),
    MESSAGES[5]: ([], "你好！我是导师推荐助手。请告诉我你想考哪个学校的哪个专业？"),
    MESSAGES[6]: ([("update_form", {"school": ZJU, "major": SE, "research_direction": "计算机视觉",
                                    "funding": "充足"}),
                   ("update_ranking", {"school": ZJU, "major": SE}),
                   ("recommend_advisors", {"school": ZJU, "major": SE, "research_direction": "计算机视觉",
                                           "personality": "温和", "funding": "充足"}),
                   ("present_options", {"question": "打算哪年入学？", "target_field": "enrollment_year",
                                        "options": ["2027", "2028", "2029"]})],
                  "根据你的需求，我推荐朱洋教授，学生评价温和，综合评分2.7（33条评价）。"),
    MESSAGES[7]: ([("update_form", {"school": THU}),
                   ("update_ranking", {"school": THU, "major": SE}),
                   ("recommend_advisors", {"school": THU, "major": SE, "research_direction": "计算机视觉",
                                           "personality": "温和", "funding": "充足"})],
                  "根据你的需求，我推荐乔悦教授，经费充足，学生评价温和。"),
}


class ScriptedModel(BaseChatModel):
    """A chat model of zero latency: the script's calls for the newest student
    message, then (once their results are in) the script's reply."""

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools, **kwargs):
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        student = next(m for m in reversed(messages) if isinstance(m, HumanMessage))
        calls, reply = SCRIPT[student.content]
        if calls and isinstance(messages[-1], HumanMessage):
            message = AIMessage("", tool_calls=[
                {"name": name, "args": args(messages) if callable(args) else args,
                 "id": f"call_{len(messages)}_{i}", "type": "tool_call"}
                for i, (name, args) in enumerate(calls)])
        else:
            message = AIMessage(reply)
        return ChatResult(generations=[ChatGeneration(message=message)])


# ----------------------------------------------------------- measuring ----
def fmt(seconds: float) -> str:
    """A duration as Rust's `{:>9.3?}` prints it."""
    for unit, scale in (("s", 1.0), ("ms", 1e3), ("µs", 1e6)):
        if seconds >= 1 / scale:
            return f"{seconds * scale:.3f}{unit}".rjust(9)
    return f"{seconds * 1e9:.3f}ns".rjust(9)


def percentiles(label: str, samples: list) -> None:
    """agent.rs's `percentiles`: nearest rank at round((n - 1) * p)."""
    samples = sorted(samples)
    at = lambda p: samples[int((len(samples) - 1) * p + 0.5)]
    mean = sum(samples) / len(samples)
    print(f"{label:<34} n={len(samples):<5} p50={fmt(at(0.50))} p95={fmt(at(0.95))} "
          f"p99={fmt(at(0.99))} mean={fmt(mean)}")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        conn = sqlite3.connect(os.path.join(tmp, "checkpoints.sqlite"), check_same_thread=False)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")  # as the site's SQLite
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            agent = create_react_agent(ScriptedModel(), TOOLS, state_schema=State,
                                       checkpointer=SqliteSaver(conn))
        samples = []
        for conversation in range(CONVERSATIONS + 1):  # 0 is the warm-up
            config = {"configurable": {"thread_id": f"conversation-{conversation}"}}
            for message in MESSAGES:
                started = time.perf_counter()
                out = agent.invoke({"messages": [HumanMessage(message)]}, config)
                elapsed = time.perf_counter() - started
                # Every turn must have done its work: the scripted calls, all
                # succeeded, and the reply.
                turn = out["messages"][[i for i, m in enumerate(out["messages"])
                                        if isinstance(m, HumanMessage)][-1]:]
                results = [m for m in turn if isinstance(m, ToolMessage)]
                assert [m.name for m in results] == [c[0] for c in SCRIPT[message][0]], (message, turn)
                assert all(m.status == "success" for m in results), [m.content for m in results]
                assert turn[-1].content == SCRIPT[message][1]
                if conversation:
                    samples.append(elapsed)
            if conversation == 0:
                print(f"form after the warm-up: {dumps(out['form'])}")
        percentiles("langgraph react turn (in process)", samples)
        conn.close()
    print("tool calls per message: " + ", ".join(str(len(SCRIPT[m][0])) for m in MESSAGES))
    print("versions: " + ", ".join(f"{p} {version(p)}" for p in (
        "langgraph", "langgraph-prebuilt", "langgraph-checkpoint", "langgraph-checkpoint-sqlite",
        "langchain-core", "pydantic")) + f"; python {sys.version.split()[0]}, sqlite {sqlite3.sqlite_version}")


if __name__ == "__main__":
    main()
