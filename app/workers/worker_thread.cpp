// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/workers/worker_thread.h"

#include "engine/core/log.h"

#include <QCoreApplication>
#include <QThread>

#include <chrono>
#include <condition_variable>

namespace wandscope::app {

QEvent::Type HandoffEvent::eventType() {
  static const auto type = static_cast<QEvent::Type>(QEvent::registerEventType());
  return type;
}

bool HandoffReceiver::event(QEvent* e) {
  tsan::acquire(e);  // before the first read of the event, its type included
  if (e->type() != HandoffEvent::eventType()) return QObject::event(e);
  static_cast<HandoffEvent*>(e)->run();
  return true;
}

void postHandoff(HandoffReceiver* receiver, HandoffEvent* e) {
  // Released after the event and its callable are complete and before Qt's queue (where the
  // receiving thread can take it) sees them.
  tsan::release(static_cast<QEvent*>(e));
  QCoreApplication::postEvent(receiver, e);
}

struct ThreadFlag {
  std::mutex mutex;
  std::condition_variable cv;
  bool value = false;

  // Notifies under the lock: the waiter may destroy the flag as soon as it sees `value`, so the
  // setter must not touch it after unlocking (TSan found exactly that when it notified after).
  void set() {
    std::lock_guard lock(mutex);
    value = true;
    cv.notify_all();
  }
  bool waitFor(unsigned long ms) {
    std::unique_lock lock(mutex);
    return cv.wait_for(lock, std::chrono::milliseconds(ms), [this] { return value; });
  }
};

#ifdef WANDSCOPE_TSAN
namespace {

// Sets its flag when the worker thread's thread_local objects are destroyed, after Qt's
// QThreadPrivate::finish() has returned: its last touch of the QThread object is the wake-up of
// QThread::wait() (QWaitCondition::wakeAll, a pthread_cond_broadcast TSan sees), and wait() may
// return without waiting on that condition, through Qt's own mutex only.
struct ExitNotice {
  std::shared_ptr<ThreadFlag> flag;
  ~ExitNotice() {
    if (flag) flag->set();
  }
};
thread_local ExitNotice t_exitNotice;

}  // namespace
#endif

void WorkerThread::Gate::close() {
  std::lock_guard lock(mutex);
  target = nullptr;
}

WorkerThread::WorkerThread(const QString& name)
    : m_thread(new QThread), m_outbox(new HandoffReceiver) {
  m_thread->setObjectName(name);
  m_gate->target = m_outbox;
}

WorkerThread::~WorkerThread() {
  if (!m_quit) quitAndWait(kDefaultWaitMs);
  m_gate->close();
  delete m_outbox;  // drops results still queued: their controller is going away
  if (m_finished) {
    delete m_inbox;  // drops jobs still queued
    delete m_thread;
  }
  // else: the thread still runs (quitAndWait returned false); it and its receiver are left to the
  // process exit, as is the worker.
}

void WorkerThread::start(QObject* worker) {
  Q_ASSERT(!m_started && worker && !worker->parent());
  m_inbox = new HandoffReceiver;
  m_inbox->moveToThread(m_thread);
  worker->moveToThread(m_thread);
#ifdef WANDSCOPE_TSAN
  // Both handlers run on the worker thread (direct connections): `started` after Qt created the
  // thread's event dispatcher and glib's wake-up eventfd, `finished` after its event loop ended
  // and before Qt closes that eventfd. The thread's exit (ExitNotice) is what quitAndWait()
  // waits for after QThread::wait(): it orders the worker's last writes, Qt's included, before
  // `delete worker` and `delete thread` (Qt's threads are detached: no pthread_join edge).
  // Not disconnected after use: the handler may still be running when the wait below returns,
  // and disconnecting could destroy it (and the flag it holds) under it.
  auto started = std::make_shared<ThreadFlag>();
  m_exited = std::make_shared<ThreadFlag>();
  QObject::connect(
      m_thread, &QThread::started, m_thread,
      [started, exited = m_exited] {
        t_exitNotice.flag = exited;
        started->set();
      },
      Qt::DirectConnection);
  m_quitReturned = std::make_shared<ThreadFlag>();
  QObject::connect(
      m_thread, &QThread::finished, m_thread,
      [quit = m_quitReturned] { quit->waitFor(kDefaultWaitMs); }, Qt::DirectConnection);
  m_thread->start();
  if (!started->waitFor(kDefaultWaitMs)) engine::log::warn("a worker thread did not start in time");
#else
  m_thread->start();
#endif
  m_started = true;
}

bool WorkerThread::quitAndWait(unsigned long timeoutMs) {
  m_quit = true;
  if (!m_started) {
    m_finished = true;
    return true;
  }
  m_thread->quit();  // the last wake-up of the worker's event loop
  if (m_quitReturned) m_quitReturned->set();
  m_finished = m_thread->wait(timeoutMs);
  // The thread is done; its exit (below Qt's finish) follows within microseconds.
  if (m_finished && m_exited && !m_exited->waitFor(kDefaultWaitMs)) {
    engine::log::warn("a finished worker thread did not exit in time");
  }
  if (!m_finished) m_gate->close();
  return m_finished;
}

}  // namespace wandscope::app
