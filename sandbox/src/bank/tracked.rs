//! [`Tracked`]: a map that remembers which keys changed, so that a state file
//! (`--state`, [`crate::state`]) writes only the rows one request changed.

use std::borrow::Borrow;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Deref;

/// A `BTreeMap` whose every change goes through [`Tracked::insert`] or
/// [`Tracked::get_mut`], which remember the key. Reading is the map's own API (through
/// `Deref`); there is no `DerefMut`, so a change that bypasses the record does not
/// compile.
#[derive(Clone)]
pub struct Tracked<K, V> {
    map: BTreeMap<K, V>,
    changed: BTreeSet<K>,
}

impl<K, V> Default for Tracked<K, V> {
    fn default() -> Tracked<K, V> {
        Tracked {
            map: BTreeMap::new(),
            changed: BTreeSet::new(),
        }
    }
}

impl<K: std::fmt::Debug, V: std::fmt::Debug> std::fmt::Debug for Tracked<K, V> {
    /// The map only: what changed since the last write is not part of the state.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.map.fmt(f)
    }
}

impl<K, V> Deref for Tracked<K, V> {
    type Target = BTreeMap<K, V>;
    fn deref(&self) -> &BTreeMap<K, V> {
        &self.map
    }
}

impl<K: Ord + Clone, V> Tracked<K, V> {
    /// Inserts (or replaces) `key`, remembering it as changed.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        self.changed.insert(key.clone());
        self.map.insert(key, value)
    }

    /// The value of `key` to change, remembering the key as changed when it exists.
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Ord + ToOwned<Owned = K> + ?Sized,
    {
        let value = self.map.get_mut(key)?;
        self.changed.insert(key.to_owned());
        Some(value)
    }

    /// The keys changed since the last call (each once, in key order).
    pub fn take_changed(&mut self) -> BTreeSet<K> {
        std::mem::take(&mut self.changed)
    }

    /// Remembers every key as changed (a new state file writes everything).
    pub fn mark_all_changed(&mut self) {
        self.changed = self.map.keys().cloned().collect();
    }

    /// Replaces the whole map (loading a state file); nothing is left marked changed.
    pub(crate) fn replace(&mut self, map: BTreeMap<K, V>) {
        self.map = map;
        self.changed.clear();
    }
}
