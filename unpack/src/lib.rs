//! Unpacking Kernel Playground's wasm module in the page.
//!
//! The build packs the page's module with LZMA (`xz --format=lzma`, scripts/build-web.sh): about
//! 27 % fewer bytes than the same module gzipped by the server, which on a phone's slow line is
//! a second sooner. This crate is the decoder, built as a wasm module of its own (23 KB, 8 KB
//! gzipped; it cannot be inside the module it unpacks): the page (www/wasm.js) writes the packed
//! bytes into its memory as they arrive, decodes as far as they reach, hands the unpacked bytes
//! on to the browser's compiler, and checks the whole against the size and CRC-32 the build
//! wrote into the page. It is Rust rather than the page's script because a script's decoder took
//! 205 ms for the module on its first, cold run (72 ms warm) against 37–44 ms here, and on a slow
//! phone's thread that is more than a fast line saves.
//!
//! - [`lzma`]: the decoder, its format and its model.
//! - [`crc32`]: the check.
//! - the page's calls (wasm32 only): `begin`, `decode`, `output`, `checksum`.

#![cfg_attr(target_arch = "wasm32", no_std)]

extern crate alloc;

pub mod crc32;
pub mod lzma;

#[cfg(target_arch = "wasm32")]
mod page {
    //! The page's calls, on one decoder at a time. The page writes each arrived piece at
    //! `begin`'s pointer plus what had arrived before, then calls `decode`. Without the
    //! standard library (its allocator and its panic messages were two thirds of the module):
    //! memory comes in whole pages and is never given back (one module is unpacked per visit),
    //! and a panic, which damaged input cannot reach, traps.
    use crate::lzma::Decoder;
    use core::alloc::{GlobalAlloc, Layout};
    use core::cell::RefCell;

    /// The one decoder.
    struct Slot(RefCell<Option<Decoder>>);
    // SAFETY: a wasm module without threads is only ever on one thread.
    unsafe impl Sync for Slot {}
    static DECODER: Slot = Slot(RefCell::new(None));

    const PAGE: usize = 65_536;

    /// Each allocation is fresh pages at the end of the memory (so aligned to a page).
    struct Pages;
    unsafe impl GlobalAlloc for Pages {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let previous = core::arch::wasm32::memory_grow(0, layout.size().div_ceil(PAGE).max(1));
            if previous == usize::MAX {
                return core::ptr::null_mut();
            }
            (previous * PAGE) as *mut u8
        }
        unsafe fn dealloc(&self, _: *mut u8, _: Layout) {}
    }
    #[global_allocator]
    static ALLOCATOR: Pages = Pages;

    #[panic_handler]
    fn panic(_: &core::panic::PanicInfo) -> ! {
        core::arch::wasm32::unreachable()
    }

    /// A new decoder for `packed` bytes unpacking to at most `capacity`; where to write them.
    #[no_mangle]
    pub extern "C" fn begin(packed: u32, capacity: u32) -> *mut u8 {
        let mut slot = DECODER.0.borrow_mut();
        slot.insert(Decoder::new(packed as usize, capacity as usize))
            .input_mut()
            .as_mut_ptr()
    }

    /// Decodes as far as `arrived` bytes allow (all, when `end` is 1); the bytes decoded in
    /// all, or −1 when the stream is damaged.
    #[no_mangle]
    pub extern "C" fn decode(arrived: u32, end: u32) -> i32 {
        match DECODER
            .0
            .borrow_mut()
            .as_mut()
            .map(|d| d.decode(arrived as usize, end == 1))
        {
            Some(Ok(written)) => written as i32,
            _ => -1,
        }
    }

    /// Where the decoded bytes are.
    #[no_mangle]
    pub extern "C" fn output() -> *const u8 {
        DECODER
            .0
            .borrow()
            .as_ref()
            .map_or(core::ptr::null(), |d| d.output().as_ptr())
    }

    /// The CRC-32 of everything decoded.
    #[no_mangle]
    pub extern "C" fn checksum() -> u32 {
        DECODER
            .0
            .borrow()
            .as_ref()
            .map_or(0, |d| crate::crc32::crc32(d.output()))
    }
}
