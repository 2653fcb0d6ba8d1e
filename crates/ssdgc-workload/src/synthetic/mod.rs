//! Deterministic synthetic workloads.
//!
//! # Spec
//!
//! A comma-separated list of `KEY=VALUE` items, for example
//! `count=100000,read=0.4,size=exp:32KiB,seq=0.4,interarrival=exp:3ms,qd=32,span=1.0,zipf:0.9`:
//!
//! | key | value | default |
//! |---|---|---|
//! | `count` | number of requests | 100000 |
//! | `read` | fraction of reads, 0..=1 | 0 |
//! | `size` | request size: fixed (`4KiB`, `8192`) or exponential with a mean (`exp:32KiB`); units `B`, `KiB`, `MiB`, `GiB` (also `K`, `M`, `G`, binary), plain number = bytes | `4KiB` |
//! | `seq` | probability that a request starts where the previous one ended, 0..=1 | 0 |
//! | `interarrival` | time between arrivals: fixed (`2ms`), exponential / Poisson arrivals (`exp:3ms`), or `0` for a closed loop; units `ns`, `us`, `ms`, `s` | `0` |
//! | `qd` | closed-loop queue depth (used by the simulator), >= 1 | 32 |
//! | `span` | fraction of the logical space addressed, in (0, 1] | 1 |
//! | `zipf` | `zipf=S` or `zipf:S`: Zipf skew S >= 0 of start-address popularity; absent = uniform | uniform |
//! | `align` | alignment of random start offsets in bytes, a positive multiple of 512 | 4096 |
//! | `burst` | on/off bursts: requests per burst, >= 1 (with `idle`) | no bursts |
//! | `idle` | on/off bursts: the host's idle time between two bursts, > 0 (with `burst`); units as `interarrival` | — |
//!
//! Each key may be given once. `count × interarrival` (the mean, for `exp:`) plus the idle gaps
//! between bursts may not exceed [`MAX_SPAN_NS`] (2^54 ns, about 208 days), so that arrival times
//! cannot overflow.
//!
//! # Bursts
//!
//! With `burst=N,idle=T` the requests come in bursts of `N` separated by `T` of host idle time
//! (Iometer's "burst length" and "transfer delay"; the practical-GC paper's bursty write test,
//! Fig. 8). In open loop the first request of each burst after the first arrives `T` after the
//! previous request (instead of an interarrival draw); inside a burst requests follow the
//! interarrival as usual. In closed loop (`interarrival=0`) the host keeps `qd` requests
//! outstanding inside a burst, issues no more once the burst's `N` are issued, and starts the next
//! burst `T` after the last request of the burst completed: the simulator does this
//! ([`SyntheticSpec::bursts`]), the records themselves carry time 0. The idle time lets the device
//! queue empty, which idle-time and NCQ-aware GC need.
//!
//! # Algorithm
//!
//! The generator owns one `Xoshiro256PlusPlus::seed_from_u64(seed)`; the same spec, logical
//! size and seed always give the same sequence. The addressed space is
//! `span_bytes = floor(span * logical_bytes)` rounded down to a multiple of `align`, made of
//! `slots = span_bytes / align` aligned slots. For each request, in this order:
//!
//! 1. **Time**: closed loop: 0 for every request. Open loop: the first request is at 0, each
//!    next one adds the fixed interarrival, or a draw from an exponential distribution with the
//!    given mean (rounded to the nearest ns); with bursts, the first request of a burst adds the
//!    idle time instead (no draw).
//! 2. **Direction**: one uniform draw `u` in [0, 1): read if `u < read`.
//! 3. **Size**: fixed, or an exponential draw rounded **up to a multiple of 512 B** (minimum
//!    512 B); then clipped to `span_bytes`.
//! 4. **Offset**: from the second request on, one uniform draw decides if the request is
//!    sequential (`u < seq`): it then starts where the previous one ended (so sequential runs are
//!    contiguous, and aligned to 512 B only when sizes are not multiples of `align`), or at 0
//!    when it would cross the end of the span. Otherwise a slot is drawn, uniformly, or with
//!    `zipf` as `rand_distr::Zipf(slots, S)` rank - 1 passed through a fixed bijection of
//!    `[0, slots)` so that the hot slots are spread over the space rather than packed at its
//!    start. The bijection alternates multiplication by odd constants and xor-shifts on the
//!    smallest power-of-two range holding `slots`, with cycle walking to stay below `slots`.
//!    The offset is `slot * align`, moved down (keeping the alignment) when the request would
//!    cross the end of the span.
//!
//! Every request thus satisfies `offset + len <= span_bytes`.

use std::str::FromStr;

use rand::Rng;
use rand_core::SeedableRng;
use rand_distr::{Distribution, Exp, Zipf};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::trace::num::decimal_ns;
use crate::{IoRecord, Op};

/// Distribution of request sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeDist {
    /// Always this many bytes.
    Fixed(u64),
    /// Exponential with this mean in bytes, rounded up to 512 B multiples.
    Exp { mean: u64 },
}

/// Distribution of interarrival times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeDist {
    /// Always this many ns.
    Fixed(u64),
    /// Exponential (Poisson arrivals) with this mean in ns.
    Exp { mean_ns: u64 },
}

/// A synthetic workload description; see the module documentation for the keys.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntheticSpec {
    pub count: u64,
    pub read: f64,
    pub size: SizeDist,
    pub seq: f64,
    /// `None`: closed loop.
    pub interarrival: Option<TimeDist>,
    pub qd: u32,
    pub span: f64,
    pub zipf: Option<f64>,
    pub align: u64,
    /// On/off bursts: requests per burst and the idle time between bursts in ns.
    pub burst: Option<(u64, u64)>,
}

impl Default for SyntheticSpec {
    fn default() -> Self {
        SyntheticSpec {
            count: 100_000,
            read: 0.0,
            size: SizeDist::Fixed(4096),
            seq: 0.0,
            interarrival: None,
            qd: 32,
            span: 1.0,
            zipf: None,
            align: 4096,
            burst: None,
        }
    }
}

/// Longest accepted `count × interarrival` (the mean, for exponential arrivals), in ns: 2^54 ns,
/// about 208 days. Exponential draws are at most about 37 times their mean, so arrival times stay
/// below [`crate::MAX_ARRIVAL_NS`].
pub const MAX_SPAN_NS: u64 = 1 << 54;

impl SyntheticSpec {
    /// Whether requests are issued in a closed loop (no interarrival time).
    pub fn is_closed_loop(&self) -> bool {
        self.interarrival.is_none()
    }

    /// `count × interarrival` (the mean for exponential arrivals) plus the idle gaps between
    /// bursts, in ns; without bursts, 0 in a closed loop.
    pub fn arrival_span_ns(&self) -> u128 {
        let ia = match self.interarrival {
            None => 0,
            Some(TimeDist::Fixed(t)) => t,
            Some(TimeDist::Exp { mean_ns }) => mean_ns,
        };
        let gaps = match self.burst {
            Some((len, idle)) if self.count > 0 => {
                u128::from((self.count - 1) / len.max(1)) * u128::from(idle)
            }
            _ => 0,
        };
        u128::from(self.count) * u128::from(ia) + gaps
    }

    /// On/off bursts as `(requests per burst, idle ns between bursts)`, if the spec has them. In a
    /// closed loop the simulator paces the bursts; in open loop the arrival times carry the gaps.
    pub fn bursts(&self) -> Option<(u64, u64)> {
        self.burst
    }
}

fn fraction(key: &str, v: &str) -> Result<f64, String> {
    match v.trim().parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("{key}: '{v}' is not a number from 0 to 1")),
    }
}

/// `v` split where its number (digits and a decimal point) ends: `("2.5", "us")`.
fn number_and_unit(v: &str) -> (&str, &str) {
    let split = v
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(v.len());
    v.split_at(split)
}

/// `4KiB`, `1.5MiB`, `512`, `512B`.
fn bytes(key: &str, v: &str) -> Result<u64, String> {
    let v = v.trim();
    let (num, unit) = number_and_unit(v);
    let mult: u64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        _ => {
            return Err(format!(
                "{key}: unknown size unit '{unit}' in '{v}' (valid: B, KiB, MiB, GiB)"
            ))
        }
    };
    decimal_ns(num, mult)
        .and_then(|b| u64::try_from(b).ok())
        .ok_or_else(|| format!("{key}: '{v}' is not a size like 4KiB or 8192"))
}

/// `3ms`, `2.5us`, `0`. `Ok(None)` for zero.
fn duration(key: &str, v: &str) -> Result<u64, String> {
    let v = v.trim();
    let (num, unit) = number_and_unit(v);
    let unit_ns: u64 = match unit {
        "ns" => 1,
        "us" => 1_000,
        "ms" => 1_000_000,
        "s" => 1_000_000_000,
        "" if decimal_ns(num, 1) == Some(0) => 1,
        "" => return Err(format!("{key}: '{v}' needs a unit (ns, us, ms, s)")),
        _ => {
            return Err(format!(
                "{key}: unknown time unit '{unit}' in '{v}' (valid: ns, us, ms, s)"
            ))
        }
    };
    decimal_ns(num, unit_ns)
        .and_then(|t| u64::try_from(t).ok())
        .ok_or_else(|| format!("{key}: '{v}' is not a duration like 3ms"))
}

impl FromStr for SyntheticSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let mut spec = SyntheticSpec::default();
        let mut seen: Vec<&str> = Vec::new();
        for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (k, v) = match item.split_once('=') {
                Some(kv) => kv,
                None => match item.split_once(':') {
                    Some(("zipf", v)) => ("zipf", v),
                    _ => return Err(format!("'{item}' is not KEY=VALUE")),
                },
            };
            let k = k.trim();
            if seen.contains(&k) {
                return Err(format!("{k}: given more than once"));
            }
            seen.push(k);
            match k {
                "count" => {
                    spec.count = v
                        .trim()
                        .parse()
                        .map_err(|_| format!("count: '{v}' is not a whole number"))?
                }
                "read" => spec.read = fraction(k, v)?,
                "seq" => spec.seq = fraction(k, v)?,
                "size" => {
                    spec.size = match v.trim().strip_prefix("exp:") {
                        Some(m) => SizeDist::Exp {
                            mean: bytes(k, m)?,
                        },
                        None => SizeDist::Fixed(bytes(k, v)?),
                    };
                    let b = match spec.size {
                        SizeDist::Fixed(b) | SizeDist::Exp { mean: b } => b,
                    };
                    if b == 0 {
                        return Err("size: must be more than 0 bytes".to_string());
                    }
                }
                "interarrival" => {
                    spec.interarrival = match v.trim().strip_prefix("exp:") {
                        Some(m) => match duration(k, m)? {
                            0 => return Err("interarrival: exp mean must be more than 0".into()),
                            mean_ns => Some(TimeDist::Exp { mean_ns }),
                        },
                        None => match duration(k, v)? {
                            0 => None,
                            t => Some(TimeDist::Fixed(t)),
                        },
                    }
                }
                "qd" => {
                    spec.qd = match v.trim().parse::<u32>() {
                        Ok(q) if q >= 1 => q,
                        _ => return Err(format!("qd: '{v}' is not a queue depth >= 1")),
                    }
                }
                "span" => {
                    spec.span = match v.trim().parse::<f64>() {
                        Ok(x) if x > 0.0 && x <= 1.0 => x,
                        _ => return Err(format!("span: '{v}' is not a fraction in (0, 1]")),
                    }
                }
                "zipf" => {
                    spec.zipf = match v.trim().parse::<f64>() {
                        Ok(x) if x.is_finite() && x >= 0.0 => Some(x),
                        _ => return Err(format!("zipf: '{v}' is not a skew >= 0")),
                    }
                }
                "align" => {
                    spec.align = match bytes(k, v)? {
                        a if a > 0 && a % 512 == 0 => a,
                        _ => {
                            return Err(format!(
                                "align: '{v}' is not a positive multiple of 512 bytes"
                            ))
                        }
                    }
                }
                "burst" => {
                    let len = match v.trim().parse::<u64>() {
                        Ok(n) if n >= 1 => n,
                        _ => return Err(format!("burst: '{v}' is not a request count >= 1")),
                    };
                    spec.burst = Some((len, spec.burst.map_or(0, |b| b.1)));
                }
                "idle" => {
                    let t = match duration(k, v)? {
                        0 => return Err("idle: the time between bursts must be more than 0".into()),
                        t => t,
                    };
                    spec.burst = Some((spec.burst.map_or(0, |b| b.0), t));
                }
                _ => {
                    return Err(format!(
                        "unknown key '{k}' (valid: count, read, size, seq, interarrival, qd, span, zipf, align, burst, idle)"
                    ))
                }
            }
        }
        match spec.burst {
            Some((0, _)) => return Err("idle: needs burst (requests per burst)".into()),
            Some((_, 0)) => return Err("burst: needs idle (the time between bursts)".into()),
            _ => {}
        }
        if spec.arrival_span_ns() > u128::from(MAX_SPAN_NS) {
            return Err(format!(
                "interarrival: count × interarrival (and the idle time between bursts) = {:.3e} s \
                 exceeds the longest supported arrival span of {:.3e} s (2^54 ns); lower count, \
                 interarrival or idle",
                spec.arrival_span_ns() as f64 / 1e9,
                MAX_SPAN_NS as f64 / 1e9
            ));
        }
        Ok(spec)
    }
}

/// A fixed bijection of `[0, n)` (multiply-odd / xor-shift rounds on `k` bits, cycle walking).
#[derive(Clone, Debug)]
struct Scramble {
    n: u64,
    bits: u32,
    mask: u64,
}

impl Scramble {
    fn new(n: u64) -> Scramble {
        let bits = 64 - n.saturating_sub(1).leading_zeros();
        let mask = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        Scramble { n, bits, mask }
    }

    fn round(&self, mut x: u64) -> u64 {
        let shift = (self.bits / 2).max(1);
        x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15) & self.mask;
        x ^= x >> shift;
        x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9) & self.mask;
        x ^= x >> shift;
        x
    }

    fn apply(&self, x: u64) -> u64 {
        if self.bits == 0 {
            return 0;
        }
        let mut y = self.round(x);
        while y >= self.n {
            y = self.round(y);
        }
        y
    }
}

/// `rng.gen::<f64>() < p`: one draw, uniform in [0, 1). A probability of 0 or 1 decides alone
/// (the draw is taken all the same, so the sequence of draws does not depend on it).
#[cfg(test)]
fn below(rng: &mut Xoshiro256PlusPlus, p: f64) -> bool {
    Chance::new(p).draw(rng)
}

/// A probability, its comparisons decided once: `Chance::new(p).draw(rng)` is
/// `rng.gen::<f64>() < p` with one draw, and a probability of 0 or 1 decides alone (the draw is
/// taken all the same, so the sequence of draws does not depend on it).
#[derive(Clone, Copy, Debug)]
enum Chance {
    Never,
    Always,
    Below(f64),
}

impl Chance {
    fn new(p: f64) -> Chance {
        if p <= 0.0 {
            Chance::Never
        } else if p >= 1.0 {
            Chance::Always
        } else {
            // (NaN too: never below it.)
            Chance::Below(p)
        }
    }

    #[inline(always)]
    fn draw(self, rng: &mut Xoshiro256PlusPlus) -> bool {
        match self {
            Chance::Never => Never.draw(rng),
            Chance::Always => Always.draw(rng),
            Chance::Below(p) => rng.gen::<f64>() < p,
        }
    }
}

/// A probability's draw: one draw from the generator and its outcome ([`Chance::draw`]).
/// [`Never`] and [`Always`] are a probability of 0 and of 1 known when compiled, so that a batch
/// loop specialised on them ([`Synthetic::fill`]) makes the same draws without testing the
/// probability per draw.
trait Draw: Copy {
    fn draw(self, rng: &mut Xoshiro256PlusPlus) -> bool;
}

/// A probability of 0.
#[derive(Clone, Copy)]
struct Never;

/// A probability of 1.
#[derive(Clone, Copy)]
struct Always;

impl Draw for Never {
    #[inline(always)]
    fn draw(self, rng: &mut Xoshiro256PlusPlus) -> bool {
        rand_core::RngCore::next_u64(rng);
        false
    }
}

impl Draw for Always {
    #[inline(always)]
    fn draw(self, rng: &mut Xoshiro256PlusPlus) -> bool {
        rand_core::RngCore::next_u64(rng);
        true
    }
}

impl Draw for Chance {
    #[inline(always)]
    fn draw(self, rng: &mut Xoshiro256PlusPlus) -> bool {
        Chance::draw(self, rng)
    }
}

/// `rng.gen_range(0..n)` for `n > 0` (rand 0.8's single-sample method: the widening multiply,
/// rejecting by `zone`), with `zone` computed once for `n` by [`zone_below`].
#[inline(always)]
fn uniform_below(rng: &mut Xoshiro256PlusPlus, n: u64, zone: u64) -> u64 {
    loop {
        let v = rand_core::RngCore::next_u64(rng);
        let m = u128::from(v) * u128::from(n);
        if m as u64 <= zone {
            return (m >> 64) as u64;
        }
    }
}

/// The rejection zone of [`uniform_below`] for `n > 0`: rand 0.8's conservative approximation
/// (0 for `n = 0`, which draws nothing).
fn zone_below(n: u64) -> u64 {
    n.checked_shl(n.leading_zeros())
        .map_or(0, |m| m.wrapping_sub(1))
}

/// Iterator over the requests of a [`SyntheticSpec`]; yields exactly `spec.count` records.
#[derive(Clone, Debug)]
pub struct Synthetic {
    rng: Xoshiro256PlusPlus,
    remaining: u64,
    read: Chance,
    seq: Chance,
    size: SizeDist,
    size_exp: Option<Exp<f64>>,
    interarrival: Option<TimeDist>,
    time_exp: Option<Exp<f64>>,
    span_bytes: u64,
    align: u64,
    slots: u64,
    zipf: Option<(Zipf<f64>, Scramble)>,
    prev_end: Option<u64>,
    now: u64,
    started: bool,
    /// On/off bursts: requests per burst and the gap, and requests issued in the current burst.
    burst: Option<(u64, u64)>,
    in_burst: u64,
    /// Uniform slots, a fixed size, no arrival times and no bursts (the common closed-loop
    /// spec): [`Synthetic::next_plain`] makes the same draws with the other cases decided once.
    plain: bool,
    /// The request size clipped to the span, when fixed.
    fixed_len: u64,
    /// [`zone_below`] of `slots` (when there are any).
    slots_zone: u64,
}

impl Synthetic {
    /// A generator over a logical space of `logical_bytes`, seeded with `seed`.
    pub fn new(spec: &SyntheticSpec, logical_bytes: u64, seed: u64) -> Synthetic {
        let align = spec.align.max(1);
        let span = if spec.span.is_finite() {
            spec.span.clamp(0.0, 1.0)
        } else {
            1.0
        };
        let span_bytes = ((logical_bytes as f64 * span) as u64).min(logical_bytes);
        let span_bytes = span_bytes / align * align;
        let slots = span_bytes / align;
        let exp = |mean: u64| Exp::new(1.0 / mean.max(1) as f64).ok();
        let zipf = match spec.zipf {
            Some(s) if slots > 0 => Zipf::new(slots, s).ok().map(|z| (z, Scramble::new(slots))),
            _ => None,
        };
        Synthetic {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            remaining: spec.count,
            read: Chance::new(spec.read),
            seq: Chance::new(spec.seq),
            size: spec.size,
            size_exp: match spec.size {
                SizeDist::Exp { mean } => exp(mean),
                SizeDist::Fixed(_) => None,
            },
            interarrival: spec.interarrival,
            time_exp: match spec.interarrival {
                Some(TimeDist::Exp { mean_ns }) => exp(mean_ns),
                _ => None,
            },
            span_bytes,
            align,
            slots,
            prev_end: None,
            now: 0,
            started: false,
            burst: spec.burst,
            in_burst: 0,
            plain: spec.burst.is_none()
                && spec.interarrival.is_none()
                && matches!(spec.size, SizeDist::Fixed(_))
                && zipf.is_none()
                && slots > 0,
            fixed_len: match spec.size {
                SizeDist::Fixed(b) => b.min(span_bytes),
                SizeDist::Exp { .. } => 0,
            },
            slots_zone: zone_below(slots),
            zipf,
        }
    }

    /// [`Iterator::next`] when the generator is `plain` ([`Synthetic::fill_plain`] of one).
    #[inline(always)]
    fn next_plain(&mut self) -> Option<IoRecord> {
        let mut r = [IoRecord {
            time_ns: 0,
            op: Op::Write,
            offset: 0,
            len: 0,
        }];
        (self.fill_plain(&mut r, self.read, self.seq) == 1).then_some(r[0])
    }

    /// [`Synthetic::fill`] when the generator is `plain`: the same draws in the same order (the
    /// direction, from the second request whether it is sequential, then the slot unless it is),
    /// with no time, a fixed size and uniform slots; the direction and the sequential choice
    /// drawn by `read` and `seq`, [`Synthetic::read`] and [`Synthetic::seq`] or their values
    /// known when compiled. (The generator's state in registers across the batch, stored back
    /// once.)
    #[inline(always)]
    fn fill_plain<R: Draw, S: Draw>(&mut self, out: &mut [IoRecord], read: R, seq: S) -> usize {
        let n = usize::try_from(self.remaining).map_or(out.len(), |r| r.min(out.len()));
        if n == 0 {
            return 0;
        }
        self.remaining -= n as u64;
        self.started = true;
        let mut rng = self.rng.clone();
        let len = self.fixed_len;
        let (span, align, slots, zone) = (self.span_bytes, self.align, self.slots, self.slots_zone);
        // One record, after one that ended at `prev_end` (`None`: the generator's first).
        let record = |rng: &mut Xoshiro256PlusPlus, prev_end: Option<u64>| {
            let op = if read.draw(rng) { Op::Read } else { Op::Write };
            let offset = match prev_end {
                Some(start) if seq.draw(rng) => {
                    if start.saturating_add(len) > span {
                        0
                    } else {
                        start
                    }
                }
                _ => {
                    let off = uniform_below(rng, slots, zone) * align;
                    if off + len > span {
                        (span - len) / align * align
                    } else {
                        off
                    }
                }
            };
            IoRecord {
                time_ns: 0,
                op,
                offset,
                len,
            }
        };
        // The batch's first record apart: after it the previous end is known (the loop is
        // compiled for `Some`).
        let (first, rest) = out[..n].split_at_mut(1);
        let r = record(&mut rng, self.prev_end);
        first[0] = r;
        let mut end = r.offset + len;
        for slot in rest {
            let r = record(&mut rng, Some(end));
            *slot = r;
            end = r.offset + len;
        }
        let prev_end = Some(end);
        self.rng = rng;
        self.prev_end = prev_end;
        n
    }

    /// The next records into `out`, as many as it holds and the generator has left; returns how
    /// many. The same records, in the same order, as that many calls of `next` (for a consumer
    /// that reads ahead in batches).
    /// (The common spec's loop apart, its state in registers across the batch, and specialised
    /// for random requests all of one direction.)
    pub fn fill(&mut self, out: &mut [IoRecord]) -> usize {
        if self.plain {
            return match (self.read, self.seq) {
                (Chance::Never, Chance::Never) => self.fill_plain(out, Never, Never),
                (Chance::Always, Chance::Never) => self.fill_plain(out, Always, Never),
                (read, seq) => self.fill_plain(out, read, seq),
            };
        }
        for (i, slot) in out.iter_mut().enumerate() {
            match self.next_general() {
                Some(r) => *slot = r,
                None => return i,
            }
        }
        out.len()
    }
}

impl Iterator for Synthetic {
    type Item = IoRecord;

    #[inline]
    fn next(&mut self) -> Option<IoRecord> {
        if self.plain {
            self.next_plain()
        } else {
            self.next_general()
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.remaining).unwrap_or(usize::MAX);
        (n, usize::try_from(self.remaining).ok())
    }
}

impl Synthetic {
    /// [`Iterator::next`] for any spec.
    #[inline(always)]
    fn next_general(&mut self) -> Option<IoRecord> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        // 1. time
        let burst_starts = match self.burst {
            Some((len, _)) => {
                let starts = self.in_burst == len;
                self.in_burst = if starts { 1 } else { self.in_burst + 1 };
                starts
            }
            None => false,
        };
        if self.started && burst_starts && self.interarrival.is_some() {
            // Open loop: the next burst arrives after the idle gap.
            let idle = self.burst.map_or(0, |b| b.1);
            self.now = self.now.saturating_add(idle);
        } else if self.started {
            let dt = match (self.interarrival, &self.time_exp) {
                (None, _) => 0,
                (Some(TimeDist::Fixed(t)), _) => t,
                (Some(TimeDist::Exp { .. }), Some(e)) => e.sample(&mut self.rng).round() as u64,
                (Some(TimeDist::Exp { mean_ns }), None) => mean_ns,
            };
            self.now = self.now.saturating_add(dt);
        }
        self.started = true;
        // 2. direction
        let op = if self.read.draw(&mut self.rng) {
            Op::Read
        } else {
            Op::Write
        };
        // 3. size
        let len = match (self.size, &self.size_exp) {
            (SizeDist::Fixed(b), _) => b,
            (SizeDist::Exp { .. }, Some(e)) => {
                let x = e.sample(&mut self.rng);
                let sectors = (x / 512.0).ceil().max(1.0);
                (sectors as u64).saturating_mul(512)
            }
            (SizeDist::Exp { mean }, None) => mean,
        };
        let len = len.min(self.span_bytes);
        // 4. offset
        let sequential = match self.prev_end {
            Some(_) => self.seq.draw(&mut self.rng),
            None => false,
        };
        let offset = if sequential {
            let start = self.prev_end.unwrap_or(0);
            if start.saturating_add(len) > self.span_bytes {
                0
            } else {
                start
            }
        } else {
            let slot = match &self.zipf {
                Some((z, scramble)) => {
                    let rank = (z.sample(&mut self.rng) as u64).saturating_sub(1);
                    scramble.apply(rank.min(self.slots - 1))
                }
                None if self.slots > 0 => self.rng.gen_range(0..self.slots),
                None => 0,
            };
            let off = slot * self.align;
            if off + len > self.span_bytes {
                (self.span_bytes - len) / self.align * self.align
            } else {
                off
            }
        };
        self.prev_end = Some(offset + len);
        Some(IoRecord {
            time_ns: if self.interarrival.is_some() {
                self.now
            } else {
                0
            },
            op,
            offset,
            len,
        })
    }
}

#[cfg(test)]
mod tests;
