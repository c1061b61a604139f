// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/views/load_dashboard.h"

#include "widgets/plots/distribution_plot.h"

#include <QGridLayout>

#include <algorithm>
#include <set>
#include <utility>

namespace wandscope::widgets {
namespace {

const QString kWaiting = QStringLiteral("Start a run to see it here");
const QString kRungLabel = QStringLiteral("rung");

DistributionPlot* makePlot(QWidget* parent, const QString& title, const QString& x, const QString& y, bool logY,
                           const QString& tip) {
  auto* p = new DistributionPlot(parent);
  p->setMinimumSize(200, 150);
  p->setTitle(title);
  p->setAxisLabels(x, y);
  p->setLogarithmic(false, logY);
  p->setKeyTicks(x == kRungLabel ? DistributionPlot::KeyTicks::Integers : DistributionPlot::KeyTicks::Round);
  p->setEmptyText(kWaiting);
  p->setToolTip(tip + QStringLiteral(" Right-click to export (PNG, SVG, PDF)."));
  return p;
}

double counterValue(const engine::RungResult& r, const QString& key) {
  const auto it = r.counters.find(key.toStdString());
  return it == r.counters.end() ? 0.0 : it->second;
}

// A per-rung series' full name, as its tooltips say it: the metric and the whole target (the target
// alone in a plot of one metric).
QString seriesName(const QStringList& metrics, int metric, const QString& target) {
  return metrics.size() == 1 ? target : QStringLiteral("%1 \u00b7 %2").arg(metrics[metric], target);
}

}  // namespace

LoadDashboard::LoadDashboard(QWidget* parent) : QWidget(parent), m_idleText(kWaiting) {
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(4);
  const auto style = DistributionPlot::Style::Line;

  m_latencyTime = makePlot(this, QStringLiteral("Latency over time"), QStringLiteral("run time (s)"),
                           QStringLiteral("ms"), true,
                           QStringLiteral("p50 and p99 latency of each live tick (~4 per second; plotting "
                                          "quantiles from the tick's histogram, not the report's)."));
  m_latencyTime->addSeries(QStringLiteral("p50"), style);
  m_latencyTime->addSeries(QStringLiteral("p99"), style);

  m_latencyRung = makePlot(this, QStringLiteral("Latency per rung"), kRungLabel, QStringLiteral("ms"),
                           true,
                           QStringLiteral("The report's p50 and p99 of each finished rung (nearest rank). A "
                                          "quantile too thin to report is left out, not drawn."));

  m_cpuRung = makePlot(this, QStringLiteral("CPU per query"), kRungLabel, QStringLiteral("CPU ms/query"),
                       false, QStringLiteral("Process CPU time over the rung's window / requests completed."));

  m_shedTime = makePlot(this, QStringLiteral("Shed requests"), QStringLiteral("run time (s)"),
                        QStringLiteral("shed (run total)"), false,
                        QStringLiteral("Requests dropped because the in-flight cap was full, summed over the "
                                       "run, settle phases included: a rising line means the engine is saturated. "
                                       "The rung table counts each rung's measured window only, so its sheds add "
                                       "up to less."));
  m_shedTime->addSeries(QStringLiteral("shed"), DistributionPlot::Style::Steps);

  m_rssTime = makePlot(this, QStringLiteral("Resident memory"), QStringLiteral("run time (s)"), QStringLiteral("RSS (MiB)"),
                       false, QStringLiteral("Resident set size of the process at each tick."));
  m_rssTime->addSeries(QStringLiteral("RSS"), style);

  m_pruningRung = makePlot(this, QStringLiteral("Pruning work per query"), kRungLabel,
                           QStringLiteral("per query"), true,
                           QStringLiteral("Per-query means of the engine counters in each rung: windows skipped "
                                          "(empty or by bound), doc blocks decoded and candidates fully scored."));
  m_rungPlots = {{m_latencyRung, {QStringLiteral("p50"), QStringLiteral("p99")}, {}},
                 {m_cpuRung, {QStringLiteral("CPU ms/query")}, {}},
                 {m_pruningRung,
                  {QStringLiteral("windows skipped"), QStringLiteral("blocks decoded"),
                   QStringLiteral("candidates scored")},
                  {QStringLiteral("windows"), QStringLiteral("blocks"), QStringLiteral("candidates")}}};
  resetRungSeries();

  grid->addWidget(m_latencyTime, 0, 0);
  grid->addWidget(m_latencyRung, 0, 1);
  grid->addWidget(m_cpuRung, 0, 2);
  grid->addWidget(m_shedTime, 1, 0);
  grid->addWidget(m_rssTime, 1, 1);
  grid->addWidget(m_pruningRung, 1, 2);
  for (int i = 0; i < 3; ++i) grid->setColumnStretch(i, 1);
  for (int i = 0; i < 2; ++i) grid->setRowStretch(i, 1);

  for (auto* p : plots()) {
    connect(p, &DistributionPlot::exported, this, &LoadDashboard::exported);
    connect(p, &DistributionPlot::exportFailed, this, &LoadDashboard::exportFailed);
  }
}

QList<DistributionPlot*> LoadDashboard::plots() const {
  return {m_latencyTime, m_latencyRung, m_cpuRung, m_shedTime, m_rssTime, m_pruningRung};
}

void LoadDashboard::appendLive(const LiveBatch& batch) {
  QVector<double> t, p50t, p50, p99t, p99, shed, rss;
  for (const auto& p : batch.points) {
    t << p.runSeconds;
    if (p.p50Ms) {
      p50t << p.runSeconds;
      p50 << *p.p50Ms;
    }
    if (p.p99Ms) {
      p99t << p.runSeconds;
      p99 << *p.p99Ms;
    }
    shed << static_cast<double>(p.runShedTotal);
    rss << p.rssMib;
  }
  if (t.isEmpty()) return;
  m_latencyTime->appendSeriesData(0, p50t, p50);
  m_latencyTime->appendSeriesData(1, p99t, p99);
  m_shedTime->appendSeriesData(0, t, shed);
  m_rssTime->appendSeriesData(0, t, rss);
}

// The per-rung plots' x axis, decided over every rung shown (a live run decides again as each
// rung arrives, and redraws the rungs so far when the answer changes):
// - every rung open loop with a positive offered rate, no target offering one rate twice: the
//   offered rate (targetRate, what the rung table's load column says), as load tools plot latency
//   against the load offered;
// - every rung closed loop with a positive client count, no target running one count twice: the
//   concurrency (clients);
// - otherwise the rung index, as the rung table numbers the rungs: a run mixing open and closed
//   rungs has no load axis both share, and a repeated rate or count (closed-loop cells of several
//   query sets at one concurrency, a rate run again) would put two rungs of a target at one x and
//   join them out of order.
// Rates or counts spanning a factor of 3 or more go on a log axis: a ladder's rungs are geometric
// (1/8, 1/4, 1/2, 1, 2x the calibrated rate) and fall evenly spaced there, where a linear axis
// crowds the lower rungs into its left end. Targets offered the same rates share their x.
LoadDashboard::RungKeys LoadDashboard::rungKeysFor(const std::vector<engine::RungResult>& rungs) {
  if (rungs.empty()) return {};
  const bool open = rungs.front().mode == "open";
  std::set<std::pair<std::string, double>> seen;  // target, key
  double lo = 0, hi = 0;
  for (const auto& r : rungs) {
    if ((r.mode == "open") != open || (!open && r.mode != "closed")) return {};
    const double key = open ? r.targetRate : static_cast<double>(r.concurrency);
    if (!(key > 0) || !seen.emplace(r.target, key).second) return {};
    lo = seen.size() == 1 ? key : std::min(lo, key);
    hi = seen.size() == 1 ? key : std::max(hi, key);
  }
  return {open ? RungAxis::OfferedRate : RungAxis::Concurrency, hi >= 3 * lo};
}

double LoadDashboard::rungKey(const engine::RungResult& r) const {
  switch (m_rungKeys.axis) {
    case RungAxis::OfferedRate: return r.targetRate;
    case RungAxis::Concurrency: return static_cast<double>(r.concurrency);
    case RungAxis::Index: break;
  }
  return static_cast<double>(r.index);
}

void LoadDashboard::applyRungKeys(const RungKeys& keys) {
  m_rungKeys = keys;
  using Ticks = DistributionPlot::KeyTicks;
  QString label = kRungLabel;
  Ticks ticks = Ticks::Integers;
  if (keys.axis == RungAxis::OfferedRate) {
    label = QStringLiteral("offered load (requests/s)");
    ticks = Ticks::AtRates;
  } else if (keys.axis == RungAxis::Concurrency) {
    label = QStringLiteral("concurrency (clients)");
    ticks = Ticks::AtKeys;
  }
  for (const RungPlot& p : m_rungPlots) {
    p.plot->setAxisLabels(label, p.plot->valueLabel());
    p.plot->setLogarithmic(keys.logarithmic, p.plot->logarithmicY());
    p.plot->setKeyTicks(ticks);
  }
}

void LoadDashboard::addRung(const engine::RungResult& r) {
  m_rungs.push_back(r);
  const RungKeys keys = rungKeysFor(m_rungs);
  if (keys == m_rungKeys) {
    drawRung(r);
    return;
  }
  applyRungKeys(keys);
  for (const RungPlot& p : m_rungPlots) p.plot->clearData();
  for (const auto& shown : m_rungs) drawRung(shown);
}

void LoadDashboard::drawRung(const engine::RungResult& r) {
  const int t = targetOf(r);
  const QVector<double> x{rungKey(r)};
  auto series = [&](DistributionPlot* plot, int metric) { return rungSeries(plot, t, metric); };
  if (r.p50Ms) m_latencyRung->appendSeriesData(series(m_latencyRung, 0), x, {*r.p50Ms});
  if (r.p99Ms) m_latencyRung->appendSeriesData(series(m_latencyRung, 1), x, {*r.p99Ms});
  if (!r.p50Ms && !r.p99Ms) m_latencyRung->setEmptyText(QStringLiteral("Quantiles absent: too few samples"));
  if (r.completed > 0) m_cpuRung->appendSeriesData(series(m_cpuRung, 0), x, {r.cpuMsPerQuery});
  const double windows = counterValue(r, QStringLiteral("windows_skipped_empty")) +
                         counterValue(r, QStringLiteral("windows_skipped_bound"));
  m_pruningRung->appendSeriesData(series(m_pruningRung, 0), x, {windows});
  m_pruningRung->appendSeriesData(series(m_pruningRung, 1), x, {counterValue(r, QStringLiteral("doc_blocks_decoded"))});
  m_pruningRung->appendSeriesData(series(m_pruningRung, 2), x, {counterValue(r, QStringLiteral("full_scores"))});
}

int LoadDashboard::rungSeries(const DistributionPlot* plot, int target, int metric) const {
  for (const RungPlot& p : m_rungPlots) {
    if (p.plot != plot) continue;
    const int metrics = static_cast<int>(p.metrics.size());
    if (target < 0 || target >= m_targets.size() || metric < 0 || metric >= metrics) return -1;
    return target * metrics + metric;
  }
  return -1;
}

int LoadDashboard::targetOf(const engine::RungResult& r) {
  const QString target = QString::fromStdString(r.target);
  const auto known = m_targets.indexOf(target);
  if (known >= 0) return static_cast<int>(known);
  m_targets << target;
  const int t = static_cast<int>(m_targets.size()) - 1;
  // The first target draws into the series resetRungSeries made; each further one gets its own,
  // so no line joins one target's last rung to the next target's first (they are not one curve).
  if (m_targets.size() > 1) {
    for (const RungPlot& p : m_rungPlots) {
      for (const QString& metric : p.metrics) p.plot->addSeries(metric, DistributionPlot::Style::LinePoints);
    }
    labelTargets();
  }
  // A point's tooltip names its target, also while the legend names only the metrics (one target).
  for (const RungPlot& p : m_rungPlots) {
    const int metrics = static_cast<int>(p.metrics.size());
    for (int m = 0; m < metrics && !target.isEmpty(); ++m) {
      p.plot->setSeriesToolTipName(t * metrics + m, seriesName(p.metrics, m, target));
    }
  }
  return t;
}

// Each target's series in its own colour, named by metric and target; the legend names the
// targets, then (on a row of their own when it takes two) the metrics' marks.
void LoadDashboard::labelTargets() {
  for (const RungPlot& p : m_rungPlots) {
    const int metrics = static_cast<int>(p.metrics.size());
    QVector<DistributionPlot::LegendKey> keys;
    for (int t = 0; t < m_targets.size(); ++t) {
      keys.push_back({m_targets[t], t, -1});
      for (int m = 0; m < metrics; ++m) {
        const int s = t * metrics + m;
        // The series' name is what its points' tooltips say: the metric and the whole target.
        p.plot->graph(s)->setName(seriesName(p.metrics, m, m_targets[t]));
        p.plot->setSeriesLook(s, t, m);
      }
    }
    // The marks of each metric, in the text colour: a colour names a target, a mark a metric.
    if (metrics > 1) {
      for (int m = 0; m < metrics; ++m) {
        keys.push_back({p.marks.value(m, p.metrics[m]), -1, m, /*newRow=*/m == 0});
      }
    }
    p.plot->setLegendKeys(keys);
    p.plot->setLegendVisible(true);
  }
}

void LoadDashboard::resetRungSeries() {
  m_targets.clear();
  for (const RungPlot& p : m_rungPlots) {
    p.plot->clearSeries();
    for (const QString& metric : p.metrics) p.plot->addSeries(metric, DistributionPlot::Style::LinePoints);
  }
}

void LoadDashboard::setRungs(const std::vector<engine::RungResult>& rungs) {
  clear();
  m_rungs = rungs;
  applyRungKeys(rungKeysFor(rungs));
  for (const auto& r : rungs) drawRung(r);
  setOverTimeEmptyText(QStringLiteral("Live ticks are not stored: per-rung plots show this run"));
  if (rungs.empty()) {
    for (auto* p : {m_latencyRung, m_cpuRung, m_pruningRung}) p->setEmptyText(QStringLiteral("The run has no rungs"));
  }
}

void LoadDashboard::clear() {
  resetRungSeries();
  m_rungs.clear();
  applyRungKeys({});
  for (auto* p : plots()) {
    p->clearData();
    p->setEmptyText(m_idleText);
    p->setLegendVisible(p->seriesCount() > 1);
  }
}

void LoadDashboard::setIdleText(const QString& text) {
  m_idleText = text;
  for (auto* p : plots()) {
    int points = 0;
    for (int i = 0; i < p->seriesCount(); ++i) points += p->pointCount(i);
    if (points == 0) p->setEmptyText(text);
  }
}

void LoadDashboard::setOverTimeEmptyText(const QString& text) {
  for (auto* p : {m_latencyTime, m_shedTime, m_rssTime}) {
    p->setEmptyText(text);
    p->setLegendVisible(false);  // nothing to label
  }
}

}  // namespace wandscope::widgets
