#!/usr/bin/env python3
"""What a request set for `make eval-asr` may ask for: the schools, majors
and advisors of the site's demo data, as Markdown (docs/asr.md).

    catalog.py [--out FILE]

starts the site's server on a fresh database (scripts/asr/task.py), reads
its JSON API and prints every school with the names students use for it,
its majors (with theirs) and the advisors of each ranking in rank order.
Someone writing requests for a blind set reads this, not the code or the
tuned set: the demo data is generated from a fixed seed, so the list is
the same on every machine until the generator changes.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import task  # noqa: E402


def catalog(site):
    out = []
    schools = site.get("/api/v1/schools")["schools"]
    majors = site.get("/api/v1/majors")["majors"]
    out.append(f"## Majors ({len(majors)}), with the other names the site knows\n")
    for m in majors:
        aliases = "、".join(a for a in m.get("aliases", []) if not a.isascii())
        out.append(f"- {m['name']}" + (f" ({aliases})" if aliases else ""))
    out.append(f"\n## Schools ({len(schools)}), their majors and the advisors of each ranking\n")
    out.append("Advisors are listed in rank order (第一个, 第二个, …): the whole ranking is one page.\n")
    for s in schools:
        aliases = "、".join(a for a in s.get("aliases", []) if not a.isascii())
        out.append(f"### {s['name']}" + (f" ({aliases})" if aliases else "") + "\n")
        for m in site.get("/api/v1/majors", school=s["name"])["majors"]:
            if not m.get("advisor_count"):
                continue
            ranking = site.get("/api/v1/advisors", school=s["name"], major=m["name"])
            names = "、".join(a["name"] for a in ranking["advisors"])
            out.append(f"- {m['name']}: {names}")
        out.append("")
    return "\n".join(out)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out")
    args = p.parse_args()
    site = task.Site(ROOT, os.path.join(ROOT, ".cache", "asr"), "catalog")
    try:
        text = catalog(site)
    finally:
        site.stop()
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        print(text)


if __name__ == "__main__":
    main()
