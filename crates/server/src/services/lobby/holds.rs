//! What this server's lobby websockets hold (docs/web.md, *Lobby*): each
//! thing (a wait, a seat at a table) by the sockets holding it here. A thing
//! lives while a socket holds it: the server says so in the store every
//! third of `LobbySettings::hold_gone`, and ends it when the last socket
//! holding it here closes (not when the server stops: the pages come back,
//! on this server or another, and hold it again).

use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// A number for a new socket, never given twice in the process.
pub fn socket_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Things `K` held by sockets, each socket's hold carrying a `V` (what the
/// thing's service needs of it: a token, a way to tell the socket).
pub struct Holds<K, V> {
    inner: Mutex<Inner<K, V>>,
}

struct Inner<K, V> {
    by_key: HashMap<K, HashMap<u64, V>>,
    by_socket: HashMap<u64, HashSet<K>>,
}

impl<K: Hash + Eq + Clone, V: Clone> Default for Holds<K, V> {
    fn default() -> Self {
        Holds { inner: Mutex::new(Inner { by_key: HashMap::new(), by_socket: HashMap::new() }) }
    }
}

impl<K: Hash + Eq + Clone, V: Clone> Holds<K, V> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner<K, V>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Socket `socket` holds `key` (again: its `V` is replaced).
    pub fn hold(&self, socket: u64, key: K, value: V) {
        let mut inner = self.lock();
        inner.by_key.entry(key.clone()).or_default().insert(socket, value);
        inner.by_socket.entry(socket).or_default().insert(key);
    }

    /// The things held here.
    pub fn keys(&self) -> Vec<K> {
        self.lock().by_key.keys().cloned().collect()
    }

    /// What each socket holding `key` here gave.
    pub fn holders(&self, key: &K) -> Vec<V> {
        self.lock().by_key.get(key).map(|m| m.values().cloned().collect()).unwrap_or_default()
    }

    /// `key` is over: no socket here holds it any more.
    pub fn forget(&self, key: &K) {
        let mut inner = self.lock();
        if let Some(sockets) = inner.by_key.remove(key) {
            for socket in sockets.keys() {
                if let Some(keys) = inner.by_socket.get_mut(socket) {
                    keys.remove(key);
                    if keys.is_empty() {
                        inner.by_socket.remove(socket);
                    }
                }
            }
        }
    }

    /// Socket `socket` closed: the things it was the last here to hold,
    /// each with what it gave.
    pub fn release(&self, socket: u64) -> Vec<(K, V)> {
        let mut inner = self.lock();
        let mut last = Vec::new();
        for key in inner.by_socket.remove(&socket).unwrap_or_default() {
            if let Some(sockets) = inner.by_key.get_mut(&key) {
                let value = sockets.remove(&socket);
                if sockets.is_empty() {
                    inner.by_key.remove(&key);
                    last.extend(value.map(|v| (key, v)));
                }
            }
        }
        last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thing_goes_with_the_last_socket_holding_it() {
        let holds: Holds<&str, u8> = Holds::default();
        holds.hold(1, "table", 10);
        holds.hold(2, "table", 20);
        holds.hold(1, "wait", 11);
        let mut keys = holds.keys();
        keys.sort_unstable();
        assert_eq!(keys, ["table", "wait"]);
        assert_eq!(holds.release(1), [("wait", 11)], "the table is still held by socket 2");
        assert_eq!(holds.holders(&"table"), [20]);
        assert_eq!(holds.release(2), [("table", 20)]);
        assert!(holds.keys().is_empty());
        assert!(holds.release(2).is_empty(), "released once");
        holds.hold(3, "wait", 30);
        holds.forget(&"wait");
        assert!(holds.release(3).is_empty(), "a thing over is not released again");
    }
}
