//! A long wait that a task's other wake-ups do not poll: [`Quiet`].
//!
//! A connection's loop and a table's loop each keep a few waits that almost never end (the
//! shutdown, a kick, a takeover, an announcement) beside the one that ends all the time (the
//! next message or command). `tokio::select!` polls every branch on every wake-up of its task,
//! and polling a `CancellationToken`'s wait again takes two locks (the token's and its
//! `Notify`'s), locks every connection or every table shares. `Quiet` gives the wait a waker of
//! its own and polls it only after that waker fired; any other wake-up of the task costs one
//! atomic swap. What the wait sees is unchanged: it is polled once at the start, again each
//! time it woke, and again after each item it gave (a stream may hold the next one already).

use futures::Stream;
use futures::task::AtomicWaker;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Wake, Waker};

/// Whether the wait's own waker fired since it was last polled, and the task to wake then.
#[derive(Debug, Default)]
struct Flag {
    woken: AtomicBool,
    task: AtomicWaker,
}

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::Release);
        self.task.wake();
    }
}

/// A future or stream polled only when its own waker fired (and once at the start).
pub struct Quiet<T> {
    inner: Pin<Box<T>>,
    flag: Arc<Flag>,
    waker: Waker,
}

impl<T> std::fmt::Debug for Quiet<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Quiet").field("flag", &self.flag).finish()
    }
}

impl<T> Quiet<T> {
    /// Wraps `inner` (a future or a stream).
    #[must_use]
    pub fn new(inner: T) -> Quiet<T> {
        let flag = Arc::new(Flag {
            woken: AtomicBool::new(true),
            task: AtomicWaker::new(),
        });
        Quiet {
            inner: Box::pin(inner),
            waker: Waker::from(Arc::clone(&flag)),
            flag,
        }
    }

    /// Whether the inner wait is to be polled now: it woke since the last poll. The task's own
    /// waker is registered first, so a wake-up after this check still reaches the task.
    fn due(&self, cx: &Context<'_>) -> bool {
        self.flag.task.register(cx.waker());
        self.flag.woken.swap(false, Ordering::AcqRel)
    }

    /// A stream that gave an item may have the next one at once, without waking anybody: the
    /// next poll polls it.
    fn after(&self, ready: bool) {
        if ready {
            self.flag.woken.store(true, Ordering::Release);
        }
    }
}

impl<T: Future> Future for Quiet<T> {
    type Output = T::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T::Output> {
        let this = self.get_mut();
        if !this.due(cx) {
            return Poll::Pending;
        }
        let polled = this
            .inner
            .as_mut()
            .poll(&mut Context::from_waker(&this.waker));
        this.after(polled.is_ready());
        polled
    }
}

impl<T: Stream> Stream for Quiet<T> {
    type Item = T::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T::Item>> {
        let this = self.get_mut();
        if !this.due(cx) {
            return Poll::Pending;
        }
        let polled = this
            .inner
            .as_mut()
            .poll_next(&mut Context::from_waker(&this.waker));
        this.after(polled.is_ready());
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::StreamExt;
    use std::sync::atomic::AtomicUsize;
    use tokio_util::sync::CancellationToken;

    /// A future that counts its polls and is ready once `open` is set, waking the last waker.
    struct Gate {
        polls: Arc<AtomicUsize>,
        open: Arc<AtomicBool>,
        waiting: Arc<AtomicWaker>,
    }

    impl Future for Gate {
        type Output = ();
        fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
            self.polls.fetch_add(1, Ordering::SeqCst);
            self.waiting.register(cx.waker());
            if self.open.load(Ordering::SeqCst) {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        }
    }

    #[test]
    fn the_wait_is_polled_only_after_its_own_waker_fired_and_then_ends() {
        let polls = Arc::new(AtomicUsize::new(0));
        let open = Arc::new(AtomicBool::new(false));
        let waiting = Arc::new(AtomicWaker::new());
        let mut quiet = Quiet::new(Gate {
            polls: Arc::clone(&polls),
            open: Arc::clone(&open),
            waiting: Arc::clone(&waiting),
        });
        let task = Arc::new(Flag::default());
        let task_waker = Waker::from(Arc::clone(&task));
        let mut cx = Context::from_waker(&task_waker);
        assert!(Pin::new(&mut quiet).poll(&mut cx).is_pending());
        assert_eq!(polls.load(Ordering::SeqCst), 1, "polled once at the start");
        // Other wake-ups of the task: the inner wait is left alone.
        for _ in 0..5 {
            assert!(Pin::new(&mut quiet).poll(&mut cx).is_pending());
        }
        assert_eq!(polls.load(Ordering::SeqCst), 1);
        // Its own waker fires: the task is woken and the wait polled again.
        open.store(true, Ordering::SeqCst);
        waiting.wake();
        assert!(task.woken.load(Ordering::SeqCst), "the task was woken");
        assert!(Pin::new(&mut quiet).poll(&mut cx).is_ready());
        assert_eq!(polls.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_cancelled_token_ends_a_quiet_wait_polled_in_a_select_loop() {
        let token = CancellationToken::new();
        let mut stopped = Quiet::new(token.clone().cancelled_owned());
        let (send, mut receive) = tokio::sync::mpsc::channel::<u32>(4);
        let cancel = token.clone();
        tokio::spawn(async move {
            for n in 0..3 {
                let _ = send.send(n).await;
            }
            cancel.cancel();
            // The channel stays open: only the token can end the loop.
            std::future::pending::<()>().await;
            drop(send);
        });
        let mut received = Vec::new();
        loop {
            tokio::select! {
                () = &mut stopped => break,
                Some(n) = receive.recv() => received.push(n),
            }
        }
        assert!(token.is_cancelled());
        assert!(received.len() <= 3);
    }

    #[tokio::test]
    async fn a_quiet_stream_yields_every_item_in_order() {
        let mut items = Quiet::new(futures::stream::iter([1, 2, 3]));
        let mut seen = Vec::new();
        while let Some(item) = items.next().await {
            seen.push(item);
        }
        assert_eq!(seen, [1, 2, 3]);
    }
}
