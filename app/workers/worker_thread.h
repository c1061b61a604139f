// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QEvent>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <utility>

// WANDSCOPE_TSAN: this translation unit is compiled with -fsanitize=thread (clang's
// __has_feature, g++'s __SANITIZE_THREAD__). Everything below that talks to ThreadSanitizer
// compiles to nothing without it.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WANDSCOPE_TSAN 1
#endif
#endif
#if !defined(WANDSCOPE_TSAN) && defined(__SANITIZE_THREAD__)
#define WANDSCOPE_TSAN 1
#endif
#ifdef WANDSCOPE_TSAN
#include <sanitizer/tsan_interface.h>
#endif

class QThread;

namespace wandscope::app {

struct ThreadFlag;

// Happens-before edges ThreadSanitizer cannot see by itself. Qt's cross-thread hand-off (the
// posted-event list behind postEvent, invokeMethod and queued signals) is locked inside
// libQt6Core, which is not built with TSan here, so TSan sees the event built on one thread and
// read on another with nothing in between (docs/RELIABILITY.md, "Qt and TSan"). release(key)
// before the hand-off and acquire(key) on receipt, on the same key, tell it: everything this
// thread did before release() happens before everything the other thread does after acquire().
// They describe synchronisation that exists (Qt's mutex); they never add any. No-ops, compiled
// to nothing, unless built with -fsanitize=thread.
namespace tsan {
inline void release([[maybe_unused]] const void* key) noexcept {
#ifdef WANDSCOPE_TSAN
  __tsan_release(const_cast<void*>(key));
#endif
}
inline void acquire([[maybe_unused]] const void* key) noexcept {
#ifdef WANDSCOPE_TSAN
  __tsan_acquire(const_cast<void*>(key));
#endif
}
}  // namespace tsan

// A copy of `value` that shares no buffer with any other copy: Qt's implicitly shared values
// (QString, QList, QByteArray: every type with detach()) get a buffer of their own, anything else
// is returned as it is. Everything that crosses threads goes through it when the sending thread
// keeps a copy. Sharing is correct in Qt (the reference count is atomic), but TSan cannot see it
// through: when the last reference goes inside a Qt library that is not built with TSan
// (libQt6Widgets replacing a label's text, say), TSan sees the free without the decrement that
// orders it after our thread's own earlier decrement, and reports a race between the two
// (docs/RELIABILITY.md, "Qt and TSan"). A value with a buffer of its own is only ever touched by
// the thread it was handed to.
template <typename T>
T unshared(T value) {
  if constexpr (requires { value.detach(); }) value.detach();
  return value;
}

// A callable travelling to another thread as a posted event. It is built (callable and captures
// included) by postTo() in our code, released, then posted; HandoffReceiver acquires it before
// running it. Qt deletes it on the receiving thread after delivery, or on whichever thread
// destroys the receiver with the event still queued; the destructor acquires too, so either way
// TSan sees the whole object built before it is read or freed.
class HandoffEvent : public QEvent {
 public:
  static QEvent::Type eventType();
  virtual void run() = 0;

 protected:
  HandoffEvent() : QEvent(eventType()) {}
};

template <typename F>
class HandoffCall final : public HandoffEvent {
 public:
  explicit HandoffCall(F fn) : m_fn(std::move(fn)) {}
  ~HandoffCall() override { tsan::acquire(static_cast<const QEvent*>(this)); }
  void run() override { m_fn(); }

 private:
  F m_fn;
};

// A QObject that runs the HandoffEvents posted to it on the thread it lives in (and delivers
// every other event as QObject does).
class HandoffReceiver : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;

 protected:
  bool event(QEvent* e) override;
};

// Posts `e` to `receiver` (release first): the one place our code hands work to Qt's queue.
void postHandoff(HandoffReceiver* receiver, HandoffEvent* e);

// Runs `fn` on `receiver`'s thread, after everything the calling thread did before the call, in
// posting order with every other event posted to that thread. Callable from any thread.
template <typename F>
void postTo(HandoffReceiver* receiver, F&& fn) {
  postHandoff(receiver, new HandoffCall<std::decay_t<F>>(std::forward<F>(fn)));
}

// The thread of one worker object, owned by a controller (STYLE.md, "Threading in the Qt app",
// 1): starts it, carries jobs to the worker and its signals back, and stops it. Every hand-off
// between the controller's (GUI) thread and the worker goes through it, so the synchronisation
// TSan needs to see is stated here once rather than at each call site:
//
// - start(): in TSan builds returns only after the thread has emitted QThread::started (through
//   a std::mutex and std::condition_variable, which TSan sees). Qt creates the thread's event
//   dispatcher, and with it glib's wake-up eventfd, before `started`; every later post writes that
//   eventfd from the GUI thread, and TSan models a descriptor as memory created by the worker
//   thread. Other builds do not wait: the GUI thread never blocks on a worker (STYLE.md 6).
// - post(): jobs travel as HandoffEvents to a receiver living on the worker thread.
// - connect(): a worker signal reaches a slot on the owner's thread as a HandoffEvent too, in
//   place of a queued connection. The signal's arguments are copied into the event on the
//   emitting thread (a runner thread for live batches) before the release, exactly as a queued
//   connection copies them, except that Qt values are unshared() (deep) copies, and the slot
//   gets those copies.
// - quitAndWait(): in TSan builds the worker thread, once its loop has ended, waits (in
//   QThread::finished, before Qt closes the eventfd) until the GUI thread has returned from
//   quit(), whose wake-up is the last write to that eventfd. After a successful QThread::wait()
//   the owner also waits until the thread is past Qt's finish() (a thread_local destructor sets
//   a flag): wait() may return through Qt's own mutex alone, and Qt's threads are detached (no
//   pthread_join edge), so this is what orders the worker's last writes before `delete worker`
//   and before `delete thread` destroys the QWaitCondition Qt's finish() just signalled.
//
// Results are delivered only while the gate is open: quitAndWait() closes it when the thread
// does not stop in time (a worker stuck in one engine call keeps running until the process
// exits; what it emits later is dropped, never delivered to a destroyed controller).
class WorkerThread {
 public:
  // A thread named `name` (not started). The calling thread is the owner's: slots given to
  // connect() run there.
  explicit WorkerThread(const QString& name);
  // Quits and waits (kDefaultWaitMs) unless quitAndWait() was called; frees the thread unless it
  // is still running.
  ~WorkerThread();
  WorkerThread(const WorkerThread&) = delete;
  WorkerThread& operator=(const WorkerThread&) = delete;

  // Moves `worker` (which must have no parent) to the thread and starts the thread. The worker
  // stays the caller's to delete, after quitAndWait() returned true.
  void start(QObject* worker);

  // Runs `fn` on the worker thread, in posting order. Call after start(), on the owner's thread.
  // Qt values `fn` captures that the owner's thread (or a widget) keeps too must be unshared().
  template <typename F>
  void post(F&& fn) {
    postTo(m_inbox, std::forward<F>(fn));
  }

  // Delivers `signal` of `sender`, emitted on any thread, to `slot` on the owner's thread:
  // `slot` is a member function of `context` or a functor. `context` (the owner, usually) must
  // live on the owner's thread; the connection ends with it. Replaces
  // QObject::connect(sender, signal, context, slot) between threads.
  template <typename Sender, typename... Args, typename Context, typename Slot>
  void connect(const Sender* sender, void (Sender::*signal)(Args...), Context* context, Slot slot) {
    QObject::connect(
        sender, signal, context,
        [gate = m_gate, context, slot](Args... args) {
          gate->post(
              [context, slot, values = std::make_tuple(unshared(std::decay_t<Args>(args))...)]() mutable {
                std::apply(
                    [&](auto&... a) {
                      if constexpr (std::is_member_function_pointer_v<Slot>) {
                        std::invoke(slot, context, a...);
                      } else {
                        static_cast<void>(context);
                        std::invoke(slot, a...);
                      }
                    },
                    values);
              });
        },
        Qt::DirectConnection);
  }

  // Shutdown, the one place the owner's thread waits for the worker (STYLE.md 6): ends the event
  // loop (a running job must already have been told to stop) and waits up to `timeoutMs`. True:
  // the thread finished, the worker may be deleted. False: it is still running; nothing it emits
  // is delivered any more, and the thread is left to the process exit.
  bool quitAndWait(unsigned long timeoutMs);

  static constexpr unsigned long kDefaultWaitMs = 10'000;

 private:
  // The owner's receiver, closed (null) when the thread is abandoned. Its mutex is held while an
  // event is posted, so closing waits for a post in progress.
  struct Gate {
    std::mutex mutex;
    HandoffReceiver* target = nullptr;

    template <typename F>
    void post(F&& fn) {
      std::lock_guard lock(mutex);
      if (target) postTo(target, std::forward<F>(fn));
    }
    void close();
  };

  QThread* m_thread = nullptr;
  HandoffReceiver* m_inbox = nullptr;   // lives on the worker thread
  HandoffReceiver* m_outbox = nullptr;  // lives on the owner's thread
  std::shared_ptr<Gate> m_gate = std::make_shared<Gate>();
  // TSan builds only: one-shot flags set on one thread and waited for (bounded) on another.
  std::shared_ptr<ThreadFlag> m_quitReturned;  // quit() has returned
  std::shared_ptr<ThreadFlag> m_exited;        // the thread is past Qt's finish()
  bool m_started = false;
  bool m_quit = false;
  bool m_finished = false;
};

}  // namespace wandscope::app
