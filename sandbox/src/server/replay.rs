//! The requestIds already used, for replay detection (`12002`).

use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;

use super::lock;

/// requestIds remembered for replay detection (oldest forgotten first).
pub const REPLAY_MEMORY: usize = 1_000_000;

/// The last [`REPLAY_MEMORY`] requestIds, as a set and in the order they came.
#[derive(Default)]
pub(super) struct Replay(Mutex<(HashSet<String>, VecDeque<String>)>);

impl Replay {
    /// Remembers `ids` (oldest first; a state file's), the last [`REPLAY_MEMORY`] of them.
    pub(super) fn with(ids: Vec<String>) -> Replay {
        let replay = Replay::default();
        for id in ids {
            replay.first_use(&id);
        }
        replay
    }

    /// Forgets `id`, as if it never came.
    pub(super) fn forget(&self, id: &str) {
        let mut guard = lock(&self.0);
        let (set, order) = &mut *guard;
        if set.remove(id) {
            order.retain(|o| o != id);
        }
    }

    /// True when `id` was not seen before (and remembers it).
    pub(super) fn first_use(&self, id: &str) -> bool {
        let mut guard = lock(&self.0);
        let (set, order) = &mut *guard;
        if set.contains(id) {
            return false;
        }
        if order.len() >= REPLAY_MEMORY {
            if let Some(old) = order.pop_front() {
                set.remove(&old);
            }
        }
        set.insert(id.to_owned());
        order.push_back(id.to_owned());
        true
    }
}
