//! The engines ([`Engine`]) and the detection, once per process, of the CPU features each needs: the search
//! compiled for an engine runs only once they were detected (`run`, in `search.rs`).

/// Which code path to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Code for any CPU: scalar, with the per-digit vectors on SSE2 (the x86-64 baseline) or arrays.
    Scalar,
    /// AVX2/BMI codegen with the SSE4.1 census; x86-64 only. Asked for on a CPU without
    /// those features, the search runs the scalar code instead.
    Simd,
    /// The SIMD engine's code compiled with AVX-512VL as well (three-input logic in one `vpternlogd`, compares
    /// into mask registers): 6-7% less time on this code. Asked for on a CPU without AVX-512, the SIMD engine
    /// runs instead (or the scalar one).
    Avx512,
}

impl Engine {
    /// The engine's name, as the benchmarks print it.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Scalar => "scalar",
            Engine::Simd => "simd",
            Engine::Avx512 => "avx512",
        }
    }

    /// The fastest engine this CPU supports.
    pub fn best() -> Engine {
        if avx512_available() {
            Engine::Avx512
        } else if simd_available() {
            Engine::Simd
        } else {
            Engine::Scalar
        }
    }

    /// The engines this CPU runs as themselves (the scalar one always), for tests that compare them.
    pub fn available() -> Vec<Engine> {
        [(Engine::Scalar, true), (Engine::Simd, simd_available()), (Engine::Avx512, avx512_available())]
            .into_iter()
            .filter_map(|(engine, runs)| runs.then_some(engine))
            .collect()
    }
}

/// True when the SIMD engine can run on this CPU (detected once).
pub fn simd_available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(detect_simd)
}

/// True when the AVX-512 engine can run on this CPU (detected once).
pub fn avx512_available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            simd_available()
                && is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512vl")
                && is_x86_feature_detected!("avx512bw")
                && is_x86_feature_detected!("avx512dq")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    })
}

fn detect_simd() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("sse4.1")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
