#!/usr/bin/env python3
"""`vrambench report` in a real browser: the report of a real quick host result set and
of a synthetic GPU set is opened in headless Chromium, which must draw every chart with
every point the page's data holds, catch no error, and paint a screenshot that is not
blank.

    report_in_browser_test.py VRAMBENCH_EXE SOURCE_DIR
"""

import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from synthetic_gpu import synthetic_gpu_set  # noqa: E402

BROWSERS = ("chromium-headless-shell", "/usr/lib/chromium/chromium-headless-shell", "chromium",
            "/usr/lib/chromium/chrome-headless-shell")
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAILED: " + what)
    return condition


def browser():
    for name in BROWSERS:
        found = shutil.which(name) or (name if os.path.isfile(name) and os.access(name, os.X_OK) else None)
        if found:
            return found
    sys.exit("no headless Chromium: install Debian's chromium-headless-shell (scripts/setup does)")


def run_browser(exe, work, *arguments):
    command = [exe, "--no-sandbox", "--headless", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
               "--user-data-dir=" + os.path.join(work, "profile"), *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def points_in(chart):
    return sum(len(series["points"]) for series in chart["series"])


def charts_in(data):
    sections = [s for card in data["cards"] for s in card["sections"]] + data["overlays"]
    return [chart for section in sections for chart in section["charts"]]


def check_model_fit_grid(data, dom):
    """The grid of which catalogued models fit on each card: in the data, every card with
    every model at each dtype; in the drawn page, its heading and one row per card and model."""
    grids = [s for card in data["cards"] for s in card["sections"] if s["title"] == "Which models fit, as measured"]
    if not check(len(grids) == 2 and all(g["tables"] for g in grids), "each of the two cards has its model fit grid"):
        return
    rows = [row for g in grids for row in g["tables"][0]["rows"]]
    columns = grids[0]["tables"][0]["columns"]
    check(columns[3:6] == ["fp16", "int8", "int4"], "the grid has a column per dtype: %s" % columns)
    check(columns[6:] == ["fp16 offloaded, over the link", "fp16 offloaded, on the host"],
          "the grid has the offloaded columns: %s" % columns)
    check(len(rows) == 2 * 10, "the grids hold each of the 10 catalogued models for both cards (%d rows)" % len(rows))
    check(all(cell.startswith("fits") or cell.startswith("no:") for row in rows for cell in row[3:6]),
          "every cell says whether the model fits")
    check(not any(" 0 cards" in cell for row in rows for cell in row[3:6]), "no cell counts 0 cards")
    check(any("tokens/s" in cell for row in rows for cell in row[3:6]), "a cell that fits gives its ceiling")
    check(all(cell in ("all in VRAM", "no figure", "none: the device is host memory") or cell.startswith("no:") or "x slower" in cell or "x faster" in cell
              for row in rows for cell in row[6:]), "every offloaded cell gives a ratio or says why not")
    check(dom.count(">Which models fit, as measured</h3>") == 2, "the browser draws each grid's heading")
    drawn_rows = re.findall(r"<tr><td>[^<]*</td><td>(llama-7b|mixtral-8x7b|qwen2\.5-72b)</td>", dom)
    check(len(drawn_rows) == 2 * 3, "the browser draws the grid's rows (%d of 6 looked for)" % len(drawn_rows))


def main():
    exe, source = sys.argv[1], sys.argv[2]
    chrome = browser()
    work = tempfile.mkdtemp(prefix="vrb-report-")
    try:
        host_path = os.path.join(source, "tests", "report", "published", "host-quick", "quick.json")
        with open(host_path) as f:
            host = json.load(f)
        gpu_path = os.path.join(work, "synthetic-gpu.json")
        with open(gpu_path, "w") as f:
            json.dump(synthetic_gpu_set(host), f)
        validated = subprocess.run([exe, "validate", gpu_path], capture_output=True, text=True)
        check(validated.returncode == 0, "the synthetic GPU set is a valid result set: " + validated.stderr)

        page = os.path.join(work, "report.html")
        made = subprocess.run([exe, "report", host_path, gpu_path, "-o", page], capture_output=True, text=True)
        if not check(made.returncode == 0 and os.path.isfile(page), "report exits 0 and writes the page: " +
                     made.stderr):
            return
        with open(page) as f:
            text = f.read()
        check(not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text), "the page fetches nothing")
        blob = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', text, re.S)
        data = json.loads(blob.group(1))
        charts = charts_in(data)
        check(len(charts) >= 10, "the page holds the charts of two cards and their overlays (%d)" % len(charts))
        check(len(data["overlays"]) >= 4, "every probe both cards ran has an overlaid view")
        rows = data["vram_against_ram"]["tables"][0]["rows"]
        check(len(rows) == 2 and "host:0" in rows[0][0], "the VRAM against RAM table has the host row first")
        check("2 x 10501 MHz x 384 bits / 8 = 1008.1 GB/s" in rows[1][-1],
              "the GPU row works its peak from bus width and clock: " + rows[1][-1])

        url = "file://" + page
        dumped = run_browser(chrome, work, "--virtual-time-budget=10000", "--dump-dom", url)
        check(dumped.returncode == 0, "the browser dumps the page: " + dumped.stderr[-2000:])
        match = re.search(r'<pre id="status" data-state="(\w+)">(.*?)</pre>', dumped.stdout, re.S)
        if not check(match is not None, "the page writes its status element"):
            return
        state, status = match.group(1), json.loads(html.unescape(match.group(2)))
        check(state == "drawn", "the page says it drew everything (state %s)" % state)
        check(status["errors"] == [], "no error caught: %s" % status["errors"])
        check(status["chart_count"] == len(charts) and len(status["charts"]) == len(charts),
              "every chart of the data is drawn (%d of %d)" % (len(status["charts"]), len(charts)))
        for chart in charts:
            drawn = status["charts"].get(chart["id"])
            if not check(drawn is not None, "chart %s (%s) is drawn" % (chart["id"], chart["title"])):
                continue
            expected = points_in(chart)
            check(expected > 0 and drawn["points"] == expected,
                  "chart %s (%s) shows its %d points (%d)" % (chart["id"], chart["title"], expected, drawn["points"]))
            check(drawn["painted"], "chart %s (%s) is painted" % (chart["id"], chart["title"]))
            check(drawn["bands"] == len(chart["bands"]), "chart %s shades its plateaus" % chart["id"])
        check(any(c["bands"] for c in charts), "some curve has shaded plateaus")
        check_model_fit_grid(data, dumped.stdout)

        shot = os.path.join(work, "report.png")
        taken = run_browser(chrome, work, "--window-size=1280,2400", "--virtual-time-budget=10000",
                            "--screenshot=" + shot, url)
        if not check(taken.returncode == 0 and os.path.isfile(shot), "the browser takes a screenshot"):
            return
        try:
            from PIL import Image
        except ImportError:
            check(False, "PIL checks the screenshot: install Debian's python3-pil (scripts/setup does) for " +
                  sys.executable)
            return
        image = Image.open(shot).convert("RGB")
        colours = image.getcolors(maxcolors=1 << 20) or []
        check(image.size == (1280, 2400), "the screenshot has the window's size %s" % (image.size,))
        check(len(colours) > 200, "the screenshot is not blank: %d distinct colours" % len(colours))
        white = max((count for count, colour in colours if colour == (255, 255, 255)), default=0)
        check(white < 0.97 * image.size[0] * image.size[1], "the screenshot is more than a white page")
        print("%d charts drawn with %d points; screenshot with %d colours" %
              (len(charts), sum(points_in(c) for c in charts), len(colours)))
    finally:
        if failures and os.environ.get("VRAMBENCH_KEEP_REPORT_TEST"):
            print("kept " + work)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
    sys.exit(1 if failures else 0)
