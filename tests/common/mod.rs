//! Helpers shared by more than one integration test.

pub mod kkt;
