//! e^x for x ≤ 0, the exponential of the RBF kernel exp(−γ‖x − z‖²), written so that a loop
//! over a Gram column runs in SIMD lanes — two per register with SSE2 or wasm's simd128, four
//! with AVX2 — and gives the same bits whatever the lane width and whatever the platform.
//!
//! The method (and its constants) is fdlibm's `exp`, as in FreeBSD's `e_exp.c`, musl and
//! Rust's `libm` (the `exp` the browser build calls for `f64::exp`):
//! 1. Reduce: x = k ln 2 + r with k an integer and |r| ≤ ½ ln 2, r carried as hi − lo with
//!    ln 2 split in two so that k·ln2_hi is exact.
//! 2. Approximate: R(z) = r (e^r + 1)/(e^r − 1), z = r², is fitted by
//!    2 + P₁z + … + P₅z⁵ within 2⁻⁵⁹ on [0, ½ ln 2]; with c(r) = r − (P₁r² + … + P₅r¹⁰),
//!    e^r = 1 + r + r c(r)/(2 − c(r)).
//! 3. Scale back: e^x = 2^k e^r, exactly, by building 2^k from its bits (in two steps where
//!    the result is subnormal, so that it is rounded once).
//!
//! The error is below 1 ulp. Every case of the scalar code (|x| tiny, near 0, far out,
//! underflow) is a select here rather than a branch, so that the lanes stay together; each
//! case computes what fdlibm computes for it.
//!
//! Why not `f64::exp`: natively that is the C library's, called once per entry; at n = 20 000
//! half of an SVM fit went to it. This one is inlined and vectorised, and gives the kernel
//! the same bits natively as in the browser.
//!
//! The constants and the method are Sun's, under this notice:
//! Copyright (C) 2004 by Sun Microsystems, Inc. All rights reserved. Permission to use, copy,
//! modify, and distribute this software is freely granted, provided that this notice is
//! preserved.

const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
const INV_LN2: f64 = f64::from_bits(0x3ff7_1547_652b_82fe);
const P1: f64 = f64::from_bits(0x3fc5_5555_5555_553e);
const P2: f64 = f64::from_bits(0xbf66_c16c_16be_bd93);
const P3: f64 = f64::from_bits(0x3f11_566a_af25_de2c);
const P4: f64 = f64::from_bits(0xbebb_bd41_c5d2_6bf1);
const P5: f64 = f64::from_bits(0x3e66_3769_72be_a4d0);

/// fdlibm's case boundaries, which it tests on the high word of |x|: |x| > ½ ln 2 (reduce),
/// |x| ≥ 1.5 ln 2 (k from x/ln 2 rather than ±1), |x| > 2⁻²⁸ (not tiny).
const HALF_LN2: f64 = f64::from_bits(0x3fd6_2e43_0000_0000);
const ONE_AND_HALF_LN2: f64 = f64::from_bits(0x3ff0_a2b2_0000_0000);
const NOT_TINY: f64 = f64::from_bits(0x3e30_0001_0000_0000);
/// Below this e^x rounds to 0.
const UNDERFLOW: f64 = -745.133_219_101_941_1;

/// 1.5·2⁵²: adding it to an integer-valued |t| < 2⁵¹ puts t in the low bits of the sum
/// exactly, and adding and subtracting it rounds t to an integer.
const SHIFTER: f64 = 6_755_399_441_055_744.0;

/// e^x for x ≤ 0 (NaN gives NaN), the same bits as fdlibm's `exp`.
#[inline(always)]
pub fn exp_non_positive(x: f64) -> f64 {
    let magnitude = -x;
    // fdlibm's k = (int)(x/ln 2 − ½), truncated towards 0 (here t < 0, so upwards); the
    // rounding through SHIFTER vectorises where `trunc` may not (SSE2 has no round).
    let t = INV_LN2 * x - 0.5;
    let nearest = (t + SHIFTER) - SHIFTER;
    let far = if nearest < t { nearest + 1.0 } else { nearest };
    let k = if magnitude >= ONE_AND_HALF_LN2 {
        far
    } else if magnitude >= HALF_LN2 {
        -1.0
    } else {
        0.0
    };
    let hi = x - k * LN2_HI;
    let lo = k * LN2_LO;
    let r = hi - lo;
    let z = r * r;
    let c = r - z * (P1 + z * (P2 + z * (P3 + z * (P4 + z * P5))));
    let y = 1.0 + (r * c / (2.0 - c) - lo + hi);
    // scalbn(y, k): below 2⁻¹⁰²² first by 2⁻⁹⁶⁹, so that the last product rounds only once.
    let subnormal = k < -1022.0;
    let (pre, k) = if subnormal {
        (f64::from_bits(0x0360_0000_0000_0000), k + 969.0)
    } else {
        (1.0, k)
    };
    let biased = (k + (SHIFTER + 1023.0))
        .to_bits()
        .wrapping_sub(SHIFTER.to_bits());
    let scaled = y * pre * f64::from_bits(biased << 52);
    if magnitude < NOT_TINY {
        1.0 + x
    } else if x < UNDERFLOW {
        0.0
    } else {
        scaled
    }
}

/// Replaces every value v (all ≤ 0) by e^v.
pub fn exp_in_place(values: &mut [f64]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has just been found to have AVX2.
        unsafe { exp_in_place_avx2(values) };
        return;
    }
    exp_in_place_lanes(values);
}

#[inline(always)]
fn exp_in_place_lanes(values: &mut [f64]) {
    for v in values {
        *v = exp_non_positive(*v);
    }
}

/// The same loop compiled for four lanes. No fused multiply-add: each operation rounds as in
/// the SSE2 and scalar code, so the bits are the same.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn exp_in_place_avx2(values: &mut [f64]) {
    exp_in_place_lanes(values);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance in units in the last place between two positive doubles (or two zeros).
    fn ulps(a: f64, b: f64) -> u64 {
        a.to_bits().abs_diff(b.to_bits())
    }

    fn arguments() -> Vec<f64> {
        let mut xs = vec![
            0.0,
            -0.0,
            -1e-300,
            -3.7e-9,
            -NOT_TINY,
            -HALF_LN2,
            -0.5 * std::f64::consts::LN_2,
            -ONE_AND_HALF_LN2,
            -1.0,
            -700.0,
            -708.39,
            -708.4,
            -720.0,
            -745.0,
            -745.13,
            UNDERFLOW,
            -745.2,
            -1e10,
            f64::NEG_INFINITY,
        ];
        // A spread over the range the RBF kernel uses, and far beyond.
        let mut v: f64 = -1e-12;
        while v > -800.0 {
            xs.push(v);
            v *= 1.000_37;
            xs.push(v.next_down());
        }
        xs
    }

    #[test]
    fn within_one_ulp_of_the_library_exp() {
        for x in arguments() {
            let ours = exp_non_positive(x);
            let reference = x.exp();
            if reference >= f64::MIN_POSITIVE {
                assert!(ulps(ours, reference) <= 1, "e^{x}: {ours} vs {reference}");
            } else {
                // Subnormal: the absolute error of one subnormal step.
                assert!(
                    (ours - reference).abs() <= 5e-324,
                    "e^{x}: {ours} vs {reference}"
                );
            }
        }
        assert!(exp_non_positive(f64::NAN).is_nan());
        assert_eq!(exp_non_positive(0.0), 1.0);
        assert_eq!(exp_non_positive(f64::NEG_INFINITY), 0.0);
    }

    #[test]
    fn lanes_give_the_scalar_bits() {
        let xs = arguments();
        let mut lanes = xs.clone();
        exp_in_place(&mut lanes);
        for (x, e) in xs.iter().zip(&lanes) {
            assert_eq!(e.to_bits(), exp_non_positive(*x).to_bits(), "e^{x}");
        }
    }
}
