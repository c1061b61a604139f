// SPDX-License-Identifier: GPL-3.0-or-later
// WorkerThread, the one hand-off between the controllers' (GUI) thread and their workers. Under
// TSan (scripts/sanitize.sh tsan) these tests are the regression tests for issue 9: the worker
// writes plain, unsynchronised data that the GUI thread then reads (and the other way round), so
// a hand-off TSan cannot see fails them with a report.
#include "app/workers/worker_thread.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QLabel>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>
#include <vector>

namespace wandscope::test {
namespace {

constexpr int kWorkerTimeoutMs = 30'000;

// Stands for a worker: everything in it is touched only on its thread, except by hand-off.
class EchoWorker : public QObject {
  Q_OBJECT
 public:
  std::vector<int> seen;  // appended to on the worker thread, no lock
  QThread* ranOn = nullptr;

  void take(const std::shared_ptr<std::vector<int>>& job) {
    ranOn = QThread::currentThread();
    for (int v : *job) seen.push_back(v);
    auto reply = std::make_shared<std::vector<int>>(seen);  // built here, read on the GUI thread
    emit done(static_cast<int>(seen.size()), reply);
  }

 signals:
  void done(int count, const std::shared_ptr<std::vector<int>>& values);
};

class Owner : public QObject {
  Q_OBJECT
 public:
  void onDone(int count, const std::shared_ptr<std::vector<int>>& values) {
    ranOn = QThread::currentThread();
    counts.push_back(count);
    last = values;
  }
  std::vector<int> counts;
  std::shared_ptr<std::vector<int>> last;
  QThread* ranOn = nullptr;
};

TEST(WorkerThread, JobsRunOnTheWorkerInOrderAndSignalsComeBackOnTheOwnersThread) {
  Owner owner;
  auto* worker = new EchoWorker;
  auto thread = std::make_unique<app::WorkerThread>(QStringLiteral("wandscope-test"));
  thread->connect(worker, &EchoWorker::done, &owner, &Owner::onDone);
  thread->start(worker);

  constexpr int kJobs = 50;
  for (int i = 0; i < kJobs; ++i) {
    // Built on this thread, read on the worker's.
    auto job = std::make_shared<std::vector<int>>(std::vector<int>{2 * i, 2 * i + 1});
    thread->post([worker, job] { worker->take(job); });
  }
  ASSERT_TRUE(QTest::qWaitFor([&] { return owner.counts.size() == kJobs; }, kWorkerTimeoutMs));
  EXPECT_EQ(owner.ranOn, QThread::currentThread());
  for (int i = 0; i < kJobs; ++i) EXPECT_EQ(owner.counts[static_cast<size_t>(i)], 2 * (i + 1));
  ASSERT_TRUE(owner.last);
  ASSERT_EQ(owner.last->size(), size_t{2 * kJobs});
  for (int i = 0; i < 2 * kJobs; ++i) EXPECT_EQ((*owner.last)[static_cast<size_t>(i)], i);

  ASSERT_TRUE(thread->quitAndWait(app::WorkerThread::kDefaultWaitMs));
  EXPECT_NE(worker->ranOn, QThread::currentThread());
  EXPECT_EQ(worker->seen.size(), size_t{2 * kJobs});  // read after the join
  delete worker;
}

TEST(WorkerThread, AFunctorSlotGetsCopiesOfTheArguments) {
  Owner owner;
  auto* worker = new EchoWorker;
  app::WorkerThread thread(QStringLiteral("wandscope-test"));
  std::vector<int> counts;
  thread.connect(worker, &EchoWorker::done, &owner,
                 [&counts](int count, const std::shared_ptr<std::vector<int>>&) { counts.push_back(count); });
  thread.start(worker);
  thread.post([worker] { worker->take(std::make_shared<std::vector<int>>(std::vector<int>{7})); });
  ASSERT_TRUE(QTest::qWaitFor([&] { return counts.size() == 1; }, kWorkerTimeoutMs));
  EXPECT_EQ(counts[0], 1);
  ASSERT_TRUE(thread.quitAndWait(app::WorkerThread::kDefaultWaitMs));
  delete worker;
}

TEST(WorkerThread, ResultsStillQueuedAtShutdownAreFreedNotDelivered) {
  Owner owner;
  auto* worker = new EchoWorker;
  {
    app::WorkerThread thread(QStringLiteral("wandscope-test"));
    thread.connect(worker, &EchoWorker::done, &owner, &Owner::onDone);
    thread.start(worker);
    auto taken = std::make_shared<std::atomic<int>>(0);
    for (int i = 0; i < 10; ++i) {
      thread.post([worker, i, taken] {
        worker->take(std::make_shared<std::vector<int>>(std::vector<int>{i}));
        taken->fetch_add(1);
      });
    }
    // No event loop runs on this thread meanwhile: the ten results, built on the worker thread,
    // stay queued for it.
    for (int waited = 0; taken->load() < 10 && waited < kWorkerTimeoutMs; ++waited) QThread::msleep(1);
    ASSERT_EQ(taken->load(), 10);
    ASSERT_TRUE(thread.quitAndWait(app::WorkerThread::kDefaultWaitMs));
    EXPECT_EQ(worker->seen.size(), size_t{10});
  }  // the destructor frees them here, on another thread than the one that built them
  QCoreApplication::processEvents();
  EXPECT_TRUE(owner.counts.empty());
  delete worker;
}

// A worker that keeps the line it emits, as QtLiveSink keeps its status line.
class StatusWorker : public QObject {
  Q_OBJECT
 public:
  QString kept;                     // worker thread only
  const QChar* keptData = nullptr;  // its buffer, compared on the GUI thread (never read through)
  std::atomic<bool> shown{false};   // relaxed both ways: no happens-before for TSan
  std::atomic<bool> dropped{false};

  void say() {
    kept = QStringLiteral("rung %1: open loop").arg(7);  // a buffer allocated on this thread
    keptData = kept.constData();
    emit status(kept);
    while (!shown.load(std::memory_order_relaxed)) QThread::yieldCurrentThread();
    kept = QString();  // this thread's last touch of its buffer
    dropped.store(true, std::memory_order_relaxed);
  }

 signals:
  void status(const QString& text);
};

// The race CI's TSan run found (the Overload test, 2026-12-01): the load worker's status line
// reached a label still sharing its buffer with the string the worker kept; the worker dropped
// its copy later, and the label freed the buffer inside libQt6Widgets, where TSan cannot see the
// reference count. connect() hands over an unshared copy: the label's buffer is not the one the
// worker keeps (checked in every build), and under TSan the last step below (the label freeing
// its text inside libQt6Widgets after the worker's unordered last touch) is reported otherwise.
TEST(WorkerThread, ASignalsQtValuesArriveUnsharedWithWhatTheWorkerKeeps) {
  QObject context;
  auto* label = new QLabel;
  auto* worker = new StatusWorker;
  auto thread = std::make_unique<app::WorkerThread>(QStringLiteral("wandscope-test"));
  thread->connect(worker, &StatusWorker::status, &context, [&](const QString& text) { label->setText(text); });
  thread->start(worker);
  thread->post([worker] { worker->say(); });

  // Past the delivery, so the event's own copy is gone too (its release would order the rest).
  ASSERT_TRUE(QTest::qWaitFor([&] { return !label->text().isEmpty(); }, kWorkerTimeoutMs));
  EXPECT_EQ(label->text(), QStringLiteral("rung 7: open loop"));
  EXPECT_NE(label->text().constData(), worker->keptData) << "the label shares the worker's buffer";
  worker->shown.store(true, std::memory_order_relaxed);
  // From here this thread must not touch the label's text in our (instrumented) code: a copy's
  // reference count would order the worker's last touch before the free below.
  ASSERT_TRUE(QTest::qWaitFor([&] { return worker->dropped.load(std::memory_order_relaxed); }, kWorkerTimeoutMs));
  delete label;  // ~QLabelPrivate frees the delivered buffer inside libQt6Widgets

  ASSERT_TRUE(thread->quitAndWait(app::WorkerThread::kDefaultWaitMs));
  delete worker;
}

TEST(WorkerThread, UnsharedGivesQtValuesABufferOfTheirOwn) {
  const QString s = QStringLiteral("shared %1").arg(1);
  const QString copy = s;
  EXPECT_EQ(copy.constData(), s.constData());  // Qt's implicit sharing
  const QString own = app::unshared(s);
  EXPECT_EQ(own, s);
  EXPECT_NE(own.constData(), s.constData());
  const QList<int> list{1, 2, 3};
  EXPECT_NE(app::unshared(list).constData(), list.constData());
  EXPECT_EQ(app::unshared(std::string("plain")), "plain");  // no detach(): as it is
}

}  // namespace
}  // namespace wandscope::test

#include "worker_thread_test.moc"
