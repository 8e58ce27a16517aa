//! The LZMA decoder: the "LZMA alone" format that `xz --format=lzma` writes (as described in
//! the LZMA SDK's lzma-specification.txt).
//!
//! The header is 13 bytes: the properties `lc + 9·(lp + 5·pb)`, the dictionary's size (unused
//! here: the whole output is kept), and the unpacked size, or 2⁶⁴ − 1 for "until the end
//! marker". Then one range-coded stream of symbols, each a literal byte or a match (a length
//! of 2 to 273 and a distance back into what was already decoded: a new one, or one of the last
//! four). Every decision is one bit coded against an adaptive probability p of 11 bits: the
//! coder's interval `range` is split at `bound = (range >> 11)·p`, and p moves 1/32 of the way
//! towards each bit seen. A literal's 8 bits are modelled on the top `lc` bits of the byte
//! before it and, right after a match, on the byte the last distance points at while their bits
//! agree; lengths and distance slots are bit trees; a distance's low bits are read reversed,
//! the middle bits of a far one unmodelled.
//!
//! [`Decoder`] decodes as its input arrives: [`Decoder::decode`] goes as far as the bytes so
//! far allow while keeping [`MARGIN`] of them unread, so that a symbol never stops half read,
//! until it is told the input is complete. The output is one buffer of a stated capacity, which
//! is also the dictionary. Anything inconsistent is [`Damage`], never a panic.

use alloc::{vec, vec::Vec};

/// The most input bytes one symbol reads: at most one per coded bit, and a match codes fewer
/// than 64 bits.
pub const MARGIN: usize = 64;
const TOP: u32 = 1 << 24;
const STATES: usize = 12;
const POS_STATES: usize = 16;

/// Why a packed stream cannot be decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Damage(pub &'static str);

/// A length's probabilities: 3 bits under 10 (by position), 3 more under 18, else 8.
#[derive(Clone)]
struct Lengths {
    choice: u16,
    choice2: u16,
    low: [[u16; 8]; POS_STATES],
    mid: [[u16; 8]; POS_STATES],
    high: [u16; 256],
}

impl Lengths {
    fn new() -> Self {
        Lengths {
            choice: HALF,
            choice2: HALF,
            low: [[HALF; 8]; POS_STATES],
            mid: [[HALF; 8]; POS_STATES],
            high: [HALF; 256],
        }
    }
}

const HALF: u16 = 1024;

/// Every adaptive probability of the stream.
struct Models {
    is_match: [[u16; POS_STATES]; STATES],
    is_rep: [u16; STATES],
    is_rep_g0: [u16; STATES],
    is_rep_g1: [u16; STATES],
    is_rep_g2: [u16; STATES],
    is_rep0_long: [[u16; POS_STATES]; STATES],
    pos_slot: [[u16; 64]; 4],
    spec_pos: [u16; 115],
    align: [u16; 16],
    len: Lengths,
    rep_len: Lengths,
    literal: Vec<u16>,
}

/// The range decoder over the bytes that have arrived.
struct Coder<'a> {
    input: &'a [u8],
    pos: usize,
    range: u32,
    code: u32,
}

impl Coder<'_> {
    #[inline(always)]
    fn normalize(&mut self) {
        if self.range < TOP {
            self.range <<= 8;
            // Past the end reads as 0, and `decode` then reports the stream as cut short.
            self.code =
                (self.code << 8) | u32::from(self.input.get(self.pos).copied().unwrap_or(0));
            self.pos += 1;
        }
    }

    #[inline(always)]
    fn bit(&mut self, prob: &mut u16) -> usize {
        let p = u32::from(*prob);
        let bound = (self.range >> 11) * p;
        let bit = if self.code < bound {
            self.range = bound;
            *prob = (p + ((2048 - p) >> 5)) as u16;
            0
        } else {
            self.range -= bound;
            self.code -= bound;
            *prob = (p - (p >> 5)) as u16;
            1
        };
        self.normalize();
        bit
    }

    #[inline(always)]
    fn tree(&mut self, probs: &mut [u16], bits: u32) -> usize {
        let mut m = 1;
        for _ in 0..bits {
            m = (m << 1) | self.bit(&mut probs[m]);
        }
        m - (1 << bits)
    }

    #[inline(always)]
    fn reversed(&mut self, probs: &mut [u16], bits: u32) -> u32 {
        let mut m = 1;
        let mut symbol = 0;
        for i in 0..bits {
            let bit = self.bit(&mut probs[m]);
            m = (m << 1) | bit;
            symbol |= (bit as u32) << i;
        }
        symbol
    }

    fn direct(&mut self, bits: u32) -> u32 {
        let mut symbol = 0u32;
        for _ in 0..bits {
            self.range >>= 1;
            let bit = u32::from(self.code >= self.range);
            self.code -= self.range & 0u32.wrapping_sub(bit);
            symbol = (symbol << 1) | bit;
            self.normalize();
        }
        symbol
    }

    fn length(&mut self, lengths: &mut Lengths, pos_state: usize) -> usize {
        if self.bit(&mut lengths.choice) == 0 {
            return self.tree(&mut lengths.low[pos_state], 3);
        }
        if self.bit(&mut lengths.choice2) == 0 {
            return 8 + self.tree(&mut lengths.mid[pos_state], 3);
        }
        16 + self.tree(&mut lengths.high, 8)
    }

    /// A new distance (minus one), for a match of `len` (minus two).
    fn distance(&mut self, models: &mut Models, len: usize) -> u32 {
        let slot = self.tree(&mut models.pos_slot[len.min(3)], 6) as u32;
        if slot < 4 {
            return slot;
        }
        let low = (slot >> 1) - 1;
        let base = (2 | (slot & 1)) << low;
        if slot < 14 {
            return base + self.reversed(&mut models.spec_pos[(base - slot) as usize..], low);
        }
        let middle = self.direct(low - 4) << 4;
        base.wrapping_add(middle)
            .wrapping_add(self.reversed(&mut models.align, 4))
    }
}

/// Decodes one packed stream as its bytes arrive.
pub struct Decoder {
    input: Vec<u8>,
    arrived: usize,
    out: Vec<u8>,
    written: usize,
    size: Option<usize>,
    lc: usize,
    lp: usize,
    pb: usize,
    models: Option<Models>,
    coder: (usize, u32, u32),
    state: usize,
    reps: [u32; 4],
    finished: bool,
}

impl Decoder {
    /// A decoder for a stream of about `packed` bytes (more may be pushed) whose output is at
    /// most `capacity` bytes.
    pub fn new(packed: usize, capacity: usize) -> Self {
        Decoder {
            input: vec![0; packed],
            arrived: 0,
            out: vec![0; capacity],
            written: 0,
            size: None,
            lc: 0,
            lp: 0,
            pb: 0,
            models: None,
            coder: (0, 0, 0),
            state: 0,
            reps: [0; 4],
            finished: false,
        }
    }

    /// The input buffer, for a caller that writes the arrived bytes in place and then says how
    /// many there are (`decode`'s `arrived`).
    pub fn input_mut(&mut self) -> &mut [u8] {
        &mut self.input
    }

    /// Adds bytes after those that have arrived.
    pub fn push(&mut self, bytes: &[u8]) {
        let end = self.arrived + bytes.len();
        if end > self.input.len() {
            self.input.resize(end, 0);
        }
        self.input[self.arrived..end].copy_from_slice(bytes);
        self.arrived = end;
    }

    /// What has been decoded so far.
    pub fn output(&self) -> &[u8] {
        &self.out[..self.written]
    }

    /// Whether the stream's end has been decoded.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Decodes as far as the first `arrived` input bytes allow (all of them when `end`, which
    /// says no more will come); returns how many bytes have been decoded in all.
    pub fn decode(&mut self, arrived: usize, end: bool) -> Result<usize, Damage> {
        if arrived > self.input.len() || arrived < self.arrived {
            return Err(Damage("more bytes than were announced"));
        }
        self.arrived = arrived;
        if self.models.is_none() && !self.start(end)? {
            return Ok(self.written);
        }
        if !self.finished {
            self.run(end)?;
        }
        if end && !self.finished {
            return Err(Damage("it ends early"));
        }
        Ok(self.written)
    }

    /// Reads the header and the coder's first bytes once they have all arrived.
    fn start(&mut self, end: bool) -> Result<bool, Damage> {
        if self.arrived < 18 {
            return if end {
                Err(Damage("no header"))
            } else {
                Ok(false)
            };
        }
        let input = &self.input;
        let mut d = usize::from(input[0]);
        if d >= 9 * 5 * 5 {
            return Err(Damage("its properties"));
        }
        self.lc = d % 9;
        d /= 9;
        self.lp = d % 5;
        self.pb = d / 5;
        let size = u64::from_le_bytes(input[5..13].try_into().expect("8 bytes"));
        if size != u64::MAX {
            if size > self.out.len() as u64 {
                return Err(Damage("too long"));
            }
            self.size = Some(size as usize);
            self.finished = size == 0;
        }
        if input[13] != 0 {
            return Err(Damage("its first byte"));
        }
        let code = u32::from_be_bytes(input[14..18].try_into().expect("4 bytes"));
        if code == u32::MAX {
            return Err(Damage("its first bytes"));
        }
        self.coder = (18, u32::MAX, code);
        self.models = Some(Models {
            is_match: [[HALF; POS_STATES]; STATES],
            is_rep: [HALF; STATES],
            is_rep_g0: [HALF; STATES],
            is_rep_g1: [HALF; STATES],
            is_rep_g2: [HALF; STATES],
            is_rep0_long: [[HALF; POS_STATES]; STATES],
            pos_slot: [[HALF; 64]; 4],
            spec_pos: [HALF; 115],
            align: [HALF; 16],
            len: Lengths::new(),
            rep_len: Lengths::new(),
            literal: vec![HALF; 0x300 << (self.lc + self.lp)],
        });
        Ok(true)
    }

    fn run(&mut self, end: bool) -> Result<(), Damage> {
        let arrived = self.arrived;
        let limit = if end {
            arrived
        } else {
            arrived.saturating_sub(MARGIN)
        };
        let (lc, pb_mask, lp_mask) = (self.lc, (1 << self.pb) - 1, (1 << self.lp) - 1);
        let capacity = self.size.unwrap_or(self.out.len());
        let models = self.models.as_mut().expect("started");
        let out = &mut self.out;
        let (pos, range, code) = self.coder;
        let mut coder = Coder {
            input: &self.input[..arrived],
            pos,
            range,
            code,
        };
        let mut written = self.written;
        let mut state = self.state;
        let [mut rep0, mut rep1, mut rep2, mut rep3] = self.reps.map(|r| r as usize);
        let mut finished = false;

        while coder.pos <= limit {
            if Some(written) == self.size {
                finished = true;
                break;
            }
            let pos_state = written & pb_mask;
            if coder.bit(&mut models.is_match[state][pos_state]) == 0 {
                let previous = if written > 0 {
                    usize::from(out[written - 1])
                } else {
                    0
                };
                let at = 0x300 * (((written & lp_mask) << lc) + (previous >> (8 - lc)));
                let probs = &mut models.literal[at..at + 0x300];
                let mut m = 1;
                if state >= 7 {
                    let mut matched = usize::from(out[written - rep0 - 1]);
                    loop {
                        let matched_bit = (matched >> 7) & 1;
                        matched <<= 1;
                        let bit = coder.bit(&mut probs[((1 + matched_bit) << 8) + m]);
                        m = (m << 1) | bit;
                        if bit != matched_bit || m >= 0x100 {
                            break;
                        }
                    }
                }
                while m < 0x100 {
                    m = (m << 1) | coder.bit(&mut probs[m]);
                }
                if written >= capacity {
                    return Err(Damage("too long"));
                }
                out[written] = m as u8;
                written += 1;
                state = if state < 4 {
                    0
                } else if state < 10 {
                    state - 3
                } else {
                    state - 6
                };
                continue;
            }
            let len = if coder.bit(&mut models.is_rep[state]) == 1 {
                if written == 0 {
                    return Err(Damage("a repeat first"));
                }
                if coder.bit(&mut models.is_rep_g0[state]) == 0 {
                    if coder.bit(&mut models.is_rep0_long[state][pos_state]) == 0 {
                        state = if state < 7 { 9 } else { 11 };
                        if written >= capacity {
                            return Err(Damage("too long"));
                        }
                        out[written] = out[written - rep0 - 1];
                        written += 1;
                        continue;
                    }
                } else {
                    let dist = if coder.bit(&mut models.is_rep_g1[state]) == 0 {
                        rep1
                    } else {
                        let dist = if coder.bit(&mut models.is_rep_g2[state]) == 0 {
                            rep2
                        } else {
                            core::mem::replace(&mut rep3, rep2)
                        };
                        rep2 = rep1;
                        dist
                    };
                    rep1 = rep0;
                    rep0 = dist;
                }
                state = if state < 7 { 8 } else { 11 };
                coder.length(&mut models.rep_len, pos_state)
            } else {
                rep3 = rep2;
                rep2 = rep1;
                rep1 = rep0;
                let len = coder.length(&mut models.len, pos_state);
                state = if state < 7 { 7 } else { 10 };
                let dist = coder.distance(models, len);
                if dist == u32::MAX {
                    if self.size.is_some_and(|size| size != written) {
                        return Err(Damage("an early end"));
                    }
                    finished = true;
                    break;
                }
                rep0 = dist as usize;
                len
            } + 2;
            if rep0 >= written {
                return Err(Damage("a distance before the start"));
            }
            if written + len > capacity {
                return Err(Damage("too long"));
            }
            for at in written..written + len {
                out[at] = out[at - rep0 - 1];
            }
            written += len;
        }
        if coder.pos > arrived {
            return Err(Damage("it ends early"));
        }
        self.coder = (coder.pos, coder.range, coder.code);
        self.written = written;
        self.state = state;
        self.reps = [rep0, rep1, rep2, rep3].map(|r| r as u32);
        self.finished = finished || self.finished;
        Ok(())
    }
}
