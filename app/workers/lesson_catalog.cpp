// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/workers/lesson_catalog.h"

#include "engine/query/trace_recorder.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace wandscope::app {
namespace {

LessonStep parseStep(const QJsonObject& o) {
  LessonStep s;
  s.kind = o.value(QStringLiteral("kind")).toString();
  s.reason = o.value(QStringLiteral("reason")).toString();
  s.nth = o.value(QStringLiteral("nth")).toInt(1);
  s.say = o.value(QStringLiteral("say")).toString();
  return s;
}

}  // namespace

LessonCatalog LessonCatalog::load(const QString& path, QString* error) {
  LessonCatalog catalog;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    if (error) *error = QStringLiteral("cannot read %1").arg(path);
    return catalog;
  }
  QJsonParseError parseError;
  const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
  if (doc.isNull()) {
    if (error) *error = QStringLiteral("%1: %2").arg(path, parseError.errorString());
    return catalog;
  }
  const QString dir = QFileInfo(path).path();
  try {
    for (const QJsonValue& v : doc.object().value(QStringLiteral("lessons")).toArray()) {
      const QJsonObject o = v.toObject();
      Lesson l;
      l.id = o.value(QStringLiteral("id")).toString();
      l.title = o.value(QStringLiteral("title")).toString();
      l.query = o.value(QStringLiteral("query")).toString();
      l.op = engine::parseOperator(o.value(QStringLiteral("operator")).toString().toStdString());
      for (const QJsonValue& a : o.value(QStringLiteral("algorithms")).toArray()) {
        l.algorithms << engine::parseAlgorithm(a.toString().toStdString());
      }
      if (o.contains(QStringLiteral("compare"))) {
        l.compare = engine::parseAlgorithm(o.value(QStringLiteral("compare")).toString().toStdString());
      }
      l.k = o.value(QStringLiteral("k")).toInt(10);
      l.options.apply(o.value(QStringLiteral("options")).toString().toStdString());  // throws on an unknown switch
      l.text = o.value(QStringLiteral("text")).toString();
      for (const QJsonValue& s : o.value(QStringLiteral("watch")).toArray()) l.watch << parseStep(s.toObject());
      l.keyStep = parseStep(o.value(QStringLiteral("key_step")).toObject());
      QFile md(dir + QLatin1Char('/') + o.value(QStringLiteral("file")).toString());
      if (md.open(QIODevice::ReadOnly)) l.markdown = QString::fromUtf8(md.readAll());
      if (l.id.isEmpty() || l.query.isEmpty() || l.algorithms.isEmpty()) {
        if (error) *error = QStringLiteral("%1: a lesson without id, query or algorithms").arg(path);
        return {};
      }
      catalog.m_lessons << l;
    }
  } catch (const std::exception& e) {
    if (error) *error = QStringLiteral("%1: %2").arg(path, QString::fromUtf8(e.what()));
    return {};
  }
  return catalog;
}

const Lesson* LessonCatalog::find(const QString& id) const {
  for (const Lesson& l : m_lessons) {
    if (l.id == id) return &l;
  }
  return nullptr;
}

long LessonCatalog::findStep(const widgets::TraceRun& run, const LessonStep& step) {
  int nth = std::max(1, step.nth);
  for (std::size_t i = 0; i < run.events.size(); ++i) {
    const auto& e = run.events[i];
    if (step.kind != QLatin1String(engine::traceEventKindName(e.kind))) continue;
    if (!step.reason.isEmpty() && step.reason != QLatin1String(engine::traceReasonName(e.reason))) continue;
    if (--nth == 0) return static_cast<long>(i);
  }
  return -1;
}

}  // namespace wandscope::app
