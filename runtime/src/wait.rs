//! Waiting for a final state: poll a status query with backoff until the state it
//! reports is one the spec calls final, or a deadline passes.

use std::time::{Duration, Instant};

use crate::client::CallOptions;
use crate::client::{Client, Operation};
use crate::error::{Error, ErrorKind};

/// How to poll: the first wait, the longest wait (each wait doubles up to it) and the
/// deadline after which [`ErrorKind::WaitDeadline`] is returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct WaitPolicy {
    /// Wait before the second query (the first is sent at once).
    pub first_delay: Duration,
    /// Longest wait between two queries.
    pub max_delay: Duration,
    /// Time after which waiting stops.
    pub deadline: Duration,
}

impl Default for WaitPolicy {
    /// 1 s, doubling to 30 s, for at most 10 minutes.
    fn default() -> WaitPolicy {
        WaitPolicy {
            first_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(30),
            deadline: Duration::from_secs(600),
        }
    }
}

impl WaitPolicy {
    /// A policy with these delays and deadline.
    pub fn new(first_delay: Duration, max_delay: Duration, deadline: Duration) -> WaitPolicy {
        WaitPolicy {
            first_delay,
            max_delay,
            deadline,
        }
    }
}

impl Client {
    /// Sends `query` until `state` reads, from its response, one of `finals`, and returns
    /// that response. Between queries it waits as `policy` says. A retryable failure of
    /// one query (the service busy, a timeout: queries move no money) is polled past;
    /// any other error is returned.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::WaitDeadline`] (with the last state seen; the error names the query,
    /// the number of queries sent and the requestId of the last one answered) when the
    /// deadline passes first; the query's error when it is not retryable.
    pub async fn wait_until<O, F>(
        &self,
        query: &O,
        state: F,
        finals: &[&str],
        policy: &WaitPolicy,
    ) -> Result<O::Response, Error>
    where
        O: Operation,
        F: Fn(&O::Response) -> Option<String>,
    {
        self.wait_for(
            query,
            |response| {
                state(response).map(|s| {
                    let is_final = finals.contains(&s.as_str());
                    (s, is_final)
                })
            },
            policy,
        )
        .await
    }

    /// Sends `query` until `state` says, from its response, that the state is final, and
    /// returns that response. `state` gives the state's wire text (for the deadline's
    /// error) and whether it is final: generated clients compare a value set's variants
    /// here, so a final state the spec renames is a compile error, not a silent miss.
    /// Otherwise as [`Client::wait_until`].
    ///
    /// # Errors
    ///
    /// As [`Client::wait_until`].
    pub async fn wait_for<O, F>(
        &self,
        query: &O,
        state: F,
        policy: &WaitPolicy,
    ) -> Result<O::Response, Error>
    where
        O: Operation,
        F: Fn(&O::Response) -> Option<(String, bool)>,
    {
        let started = Instant::now();
        let mut delay = policy.first_delay;
        let mut last_state = None;
        let mut last_request_id = None;
        let mut queries: u32 = 0;
        loop {
            queries = queries.saturating_add(1);
            match self.execute_with(query, &CallOptions::default()).await {
                Ok(success) => {
                    match state(&success.data) {
                        Some((_, true)) => return Ok(success.data),
                        now => last_state = now.map(|(text, _)| text),
                    }
                    last_request_id = Some(success.request_id);
                }
                Err(error) if error.is_retryable() && !O::MOVES_MONEY => {}
                Err(error) => return Err(error),
            }
            let elapsed = started.elapsed();
            if elapsed + delay > policy.deadline {
                return Err(Error::from(ErrorKind::WaitDeadline {
                    last_state,
                    after: elapsed,
                })
                .in_call(O::NAME, last_request_id, queries));
            }
            tokio::time::sleep(delay).await;
            delay = delay.saturating_mul(2).min(policy.max_delay);
        }
    }
}
