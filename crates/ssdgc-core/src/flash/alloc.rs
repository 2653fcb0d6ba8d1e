//! Static allocation orders: how consecutive logical pages are spread over channels (C), chips or
//! ways (W), dies (D) and planes (P). The order names the fastest-changing coordinate first, so `CWDP`
//! (the default, channel-first as in the PaGC paper's evaluation set-up, §VI) puts logical pages 0, 1, 2 … on channels
//! 0, 1, 2 …, and `PCWD` puts consecutive pages on the planes of one die first.

use super::Geometry;

/// The coordinates' letters: channel, chip/way, die, plane.
const LETTERS: [char; 4] = ['C', 'W', 'D', 'P'];

/// One of the 24 permutations of C, W, D, P.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocationOrder {
    /// Coordinates fastest first: 0 = channel, 1 = chip, 2 = die, 3 = plane.
    dims: [u8; 4],
}

impl AllocationOrder {
    /// Parses an order such as `CWDP` (case-insensitive); the error says what is wrong with it.
    pub fn parse(s: &str) -> Result<Self, String> {
        s.parse()
    }

    /// The order's canonical name, upper case (`CWDP`): parses back to the same order.
    pub fn name(&self) -> String {
        self.dims.iter().map(|&d| LETTERS[d as usize]).collect()
    }

    /// All 24 orders, by name.
    pub fn all() -> Vec<String> {
        let mut out = Vec::new();
        for a in 0..4 {
            for b in 0..4 {
                for c in 0..4 {
                    for d in 0..4 {
                        let v = [a, b, c, d];
                        let mut s = v.to_vec();
                        s.sort_unstable();
                        s.dedup();
                        if s.len() == 4 {
                            out.push(v.iter().map(|&i| LETTERS[i]).collect());
                        }
                    }
                }
            }
        }
        out
    }

    /// Splits a linear index into (channel, chip, die, plane).
    #[inline]
    pub fn split(&self, mut idx: u64, g: &Geometry) -> (u32, u32, u32, u32) {
        let sizes = [
            g.channels as u64,
            g.chips_per_channel as u64,
            g.dies_per_chip as u64,
            g.planes_per_die as u64,
        ];
        let mut coord = [0u32; 4];
        for &d in &self.dims {
            let n = sizes[d as usize];
            coord[d as usize] = (idx % n) as u32;
            idx /= n;
        }
        (coord[0], coord[1], coord[2], coord[3])
    }
}

impl std::str::FromStr for AllocationOrder {
    type Err = String;

    /// Parses an order such as `CWDP` (case-insensitive, surrounding blanks ignored). The error is
    /// the reason only (`is not an allocation order: …`), for the caller to name the setting.
    fn from_str(s: &str) -> Result<Self, String> {
        let up = s.trim().to_ascii_uppercase();
        let not_one = || {
            "is not an allocation order: use a permutation of C, W, D and P such as CWDP"
                .to_string()
        };
        if up.chars().count() != 4 {
            return Err(not_one());
        }
        let mut dims = [0u8; 4];
        let mut seen = [false; 4];
        for (i, ch) in up.chars().enumerate() {
            let d = LETTERS.iter().position(|&l| l == ch).ok_or_else(not_one)?;
            if seen[d] {
                return Err(format!(
                    "repeats '{ch}': an allocation order names each of C, W, D and P once"
                ));
            }
            seen[d] = true;
            dims[i] = d as u8;
        }
        Ok(AllocationOrder { dims })
    }
}

impl std::fmt::Display for AllocationOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_four_orders_parse() {
        let all = AllocationOrder::all();
        assert_eq!(all.len(), 24);
        for o in &all {
            AllocationOrder::parse(o).unwrap();
        }
        for o in &all {
            assert_eq!(&AllocationOrder::parse(o).unwrap().to_string(), o);
        }
        assert_eq!(AllocationOrder::parse(" pcwd ").unwrap().name(), "PCWD");
        assert!(AllocationOrder::parse("CWDD")
            .unwrap_err()
            .starts_with("repeats 'D'"));
        for bad in ["CWD", "CWDPX", "CWDX", "", "ÇWDP"] {
            assert!(
                AllocationOrder::parse(bad)
                    .unwrap_err()
                    .starts_with("is not an allocation order"),
                "{bad}"
            );
        }
    }

    #[test]
    fn cwdp_is_channel_first_and_pcwd_plane_first() {
        let g = super::super::Geometry::new(super::super::test_params());
        let cwdp = AllocationOrder::parse("CWDP").unwrap();
        assert_eq!(cwdp.split(0, &g), (0, 0, 0, 0));
        assert_eq!(cwdp.split(1, &g), (1, 0, 0, 0));
        assert_eq!(cwdp.split(2, &g), (0, 1, 0, 0));
        let pcwd = AllocationOrder::parse("PCWD").unwrap();
        assert_eq!(pcwd.split(1, &g), (0, 0, 0, 1));
        assert_eq!(pcwd.split(2, &g), (1, 0, 0, 0));
    }
}
