// Draws the page's data (the JSON in #report-data, built by vrambench) with Chart.js,
// then writes #status: every chart with the points it shows and the points the data
// holds, whether its canvas was painted, and every error caught on the way.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var statusElement = document.getElementById("status");
  var drawn = {};
  var finished = false;

  function writeStatus() {
    var errors = window.vrbErrors.slice();
    var state = !finished ? "pending" : errors.length ? "error" : "drawn";
    statusElement.dataset.state = state;
    statusElement.textContent = JSON.stringify({
      state: state,
      chart_count: data.chart_count,
      charts: drawn,
      errors: errors
    });
  }
  window.vrbStatus = writeStatus;

  var palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
                 "#7f7f7f", "#bcbd22"];
  var bandColours = ["rgba(0, 150, 136, 0.13)", "rgba(255, 160, 0, 0.15)", "rgba(63, 81, 181, 0.12)"];

  function formatBytes(bytes) {
    var units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    var unit = 0;
    while (Math.abs(bytes) >= 1024 && unit < units.length - 1) {
      bytes /= 1024;
      unit += 1;
    }
    var rounded = Math.abs(bytes - Math.round(bytes)) < 1e-9 ? String(Math.round(bytes)) : bytes.toFixed(1);
    return rounded + " " + units[unit];
  }

  function formatNumber(value) {
    if (typeof value !== "number") return String(value);
    var magnitude = Math.abs(value);
    if (magnitude >= 100) return value.toFixed(0);
    if (magnitude >= 10) return value.toFixed(1);
    if (magnitude >= 0.01 || magnitude === 0) return value.toFixed(2);
    return value.toPrecision(2);
  }

  function element(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  // A log-bytes axis is drawn as a linear axis over log2(bytes): its ticks fall on
  // powers of two, which read as 4 KiB, 1 MiB, 1 GiB.
  function axisValue(spec, value) {
    return spec.scale === "log-bytes" ? Math.log2(value) : value;
  }

  function scaleOptions(spec) {
    var options = { title: { display: !!spec.title, text: spec.title } };
    if (spec.scale === "category") {
      options.type = "category";
      options.labels = spec.labels;
    } else if (spec.scale === "log") {
      options.type = "logarithmic";
    } else if (spec.scale === "log-bytes") {
      options.type = "linear";
      options.ticks = {
        stepSize: 1,
        callback: function (value) { return Number.isInteger(value) ? formatBytes(Math.pow(2, value)) : ""; }
      };
    } else {
      options.type = "linear";
      options.beginAtZero = true;
    }
    return options;
  }

  function bandsPlugin(bands, xSpec) {
    return {
      id: "vrbBands",
      beforeDatasetsDraw: function (chart) {
        var area = chart.chartArea;
        var x = chart.scales.x;
        var ctx = chart.ctx;
        bands.forEach(function (band, index) {
          var left = Math.max(area.left, x.getPixelForValue(axisValue(xSpec, band.from)));
          var right = Math.min(area.right, x.getPixelForValue(axisValue(xSpec, band.to)));
          if (right - left < 4) right = Math.min(area.right, left + 4);
          ctx.save();
          ctx.fillStyle = bandColours[index % bandColours.length];
          ctx.fillRect(left, area.top, right - left, area.bottom - area.top);
          ctx.fillStyle = "#333";
          ctx.font = "11px system-ui, sans-serif";
          ctx.fillText(band.label, left + 3, area.top + 12 + (index % 2) * 13);
          ctx.restore();
        });
      }
    };
  }

  function painted(canvas) {
    var context = canvas.getContext("2d");
    var pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
    for (var i = 3; i < pixels.length; i += 4)
      if (pixels[i] !== 0) return true;
    return false;
  }

  function drawChart(spec, parent) {
    var horizontal = !!spec.horizontal;
    var valueSpec = horizontal ? spec.x : spec.y;
    var indexSpec = horizontal ? spec.y : spec.x;
    var box = element("div", undefined, horizontal ? "chart horizontal" : "chart");
    var canvas = document.createElement("canvas");
    canvas.id = spec.id;
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", spec.title);
    box.appendChild(canvas);
    parent.appendChild(element("h4", spec.title));
    parent.appendChild(box);

    var expected = 0;
    var lowest = Infinity;
    var datasets = spec.series.map(function (series, index) {
      expected += series.points.length;
      var peak = series.style === "peak";
      var colour = peak ? "#000" : palette[index % palette.length];
      var points = series.points.map(function (p) {
        var point = { x: axisValue(spec.x, p.x), y: axisValue(spec.y, p.y) };
        if (valueSpec.scale === "log-bytes") lowest = Math.min(lowest, horizontal ? point.x : point.y);
        return point;
      });
      var dataset = {
        label: series.label,
        data: points,
        borderColor: colour,
        backgroundColor: peak ? colour : colour + "cc",
        borderWidth: peak ? 2 : spec.type === "line" ? 2 : 1,
        pointRadius: peak ? 0 : 3,
        order: peak ? 0 : 1
      };
      if (peak) {
        dataset.type = "line";
        dataset.borderDash = [6, 4];
        dataset.fill = false;
      }
      return dataset;
    });

    var scales = { x: scaleOptions(spec.x), y: scaleOptions(spec.y) };
    if (valueSpec.scale === "log-bytes" && isFinite(lowest)) {
      // Bars grow from the axis' start: start it a little below the smallest figure.
      scales[horizontal ? "x" : "y"].min = Math.max(0, Math.floor(lowest) - 2);
    }
    var chart = new Chart(canvas, {
      type: spec.type,
      data: { labels: indexSpec.scale === "category" ? indexSpec.labels : undefined, datasets: datasets },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        indexAxis: horizontal ? "y" : "x",
        scales: scales,
        plugins: {
          legend: { position: "bottom" },
          tooltip: {
            callbacks: {
              label: function (item) {
                var x = spec.x.scale === "log-bytes" ? formatBytes(Math.pow(2, item.parsed.x)) : item.label;
                var y = spec.y.scale === "log-bytes" ? formatBytes(Math.pow(2, item.parsed.y)) : formatNumber(item.parsed.y);
                if (horizontal) {
                  x = item.label;
                  y = spec.x.scale === "log-bytes" ? formatBytes(Math.pow(2, item.parsed.x)) : formatNumber(item.parsed.x);
                }
                return item.dataset.label + ": " + y + " at " + x;
              }
            }
          }
        }
      },
      plugins: spec.bands.length ? [bandsPlugin(spec.bands, spec.x)] : []
    });
    var shown = 0;
    chart.data.datasets.forEach(function (dataset, index) { shown += chart.getDatasetMeta(index).data.length; });
    drawn[spec.id] = { points: shown, expected: expected, bands: spec.bands.length, painted: painted(canvas) };
  }

  function drawTable(spec, parent) {
    var wrapper = element("div", undefined, "wide");
    var table = document.createElement("table");
    var head = document.createElement("tr");
    spec.columns.forEach(function (column) { head.appendChild(element("th", column)); });
    table.appendChild(head);
    spec.rows.forEach(function (row) {
      var tr = document.createElement("tr");
      row.forEach(function (cell) {
        tr.appendChild(element("td", cell, /^-?[0-9][0-9.,]*( |$)/.test(cell) ? "number" : undefined));
      });
      table.appendChild(tr);
    });
    wrapper.appendChild(table);
    parent.appendChild(wrapper);
  }

  function drawSection(section, parent, level) {
    if (level) parent.appendChild(element(level, section.title));
    section.notes.forEach(function (note) { parent.appendChild(element("p", note, "note")); });
    section.charts.forEach(function (chart) { drawChart(chart, parent); });
    section.tables.forEach(function (table) { drawTable(table, parent); });
  }

  function part(id, title) {
    var container = element("section");
    container.id = id;
    container.appendChild(element("h2", title));
    document.getElementById("report").appendChild(container);
    var link = element("a", title);
    link.href = "#" + id;
    document.getElementById("contents").appendChild(link);
    return container;
  }

  try {
    document.title = data.title;
    document.getElementById("title").textContent = data.title;
    document.getElementById("sets").textContent = data.sets.map(function (set) {
      return set.name + " (" + set.suite + " suite, " + set.started + ", " + set.status + ")";
    }).join("; ");
    drawSection(data.vram_against_ram, part("vram-against-ram", data.vram_against_ram.title), null);
    if (data.overlays.length) {
      var overlays = part("overlays", "Every card, one view per probe");
      data.overlays.forEach(function (section) { drawSection(section, overlays, "h3"); });
    }
    data.cards.forEach(function (card, index) {
      var container = part("card-" + index, card.label);
      card.sections.forEach(function (section) { drawSection(section, container, "h3"); });
    });
  } catch (error) {
    window.vrbError("drawing failed: " + (error && error.stack ? error.stack : String(error)));
  }
  finished = true;
  writeStatus();
})();
