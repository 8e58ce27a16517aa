//! How long the Gram view's λ_min takes (run with `cargo test --release --test
//! spectrum_timing -- --ignored --nocapture`).

use kernel_playground::core::kernel::Kernel;
use kernel_playground::core::spectrum::smallest_eigenvalue;
use std::time::Instant;

#[test]
#[ignore]
fn time_the_smallest_eigenvalue() {
    for n in [500, 2000] {
        let points: Vec<[f64; 2]> = (0..n)
            .map(|i| {
                let t = i as f64 * 0.618_033_988_749_895;
                [t.fract() * 2.0 - 1.0, (t * 1.7).fract() * 2.0 - 1.0]
            })
            .collect();
        for kernel in [
            Kernel::Rbf { gamma: 2.0 },
            Kernel::Sigmoid {
                gamma: 2.0,
                coef0: 1.0,
            },
        ] {
            let start = Instant::now();
            let gram = kernel.gram(&points);
            let built = start.elapsed();
            let s = smallest_eigenvalue(&gram, n);
            println!(
                "n = {n} {}: Gram {:?}, λ_min = {:.3e} (exact: {}) in {:?}",
                kernel.name(),
                built,
                s.value,
                s.exact,
                start.elapsed() - built
            );
            if n > kernel_playground::core::spectrum::EXACT_UP_TO && std::env::var("EXACT").is_ok()
            {
                let m = nalgebra::DMatrix::from_row_slice(n, n, &gram);
                let t = Instant::now();
                let exact = m.symmetric_eigenvalues().min();
                println!("  exact {exact:.6e} in {:?}", t.elapsed());
            }
        }
    }
}
