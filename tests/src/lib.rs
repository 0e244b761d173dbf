//! Tests live in tests/tests/.
