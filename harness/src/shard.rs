//! `matrix --shard K/N`: one of N disjoint parts of the catalogue, for CI jobs that split a
//! column. A case belongs to shard `hash(id) mod N + 1`, where the hash is 64-bit FNV-1a of the
//! id's UTF-8 bytes: the same id lands in the same shard on every machine, Rust release and
//! run, whatever other cases the catalogue holds, so adding a case never moves another one.
//! Every case is in exactly one shard of N; `merge` joins the shards' reports.

use std::fmt;
use std::str::FromStr;

use crate::catalogue::Catalogue;
use crate::stored::fnv1a;

/// Shard `index` of `count` (1-based, as `--shard 1/3`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 1.
    pub index: u64,
    /// How many shards.
    pub count: u64,
}

impl Shard {
    /// The shard (1-based) a case id belongs to among `count`.
    pub fn of(id: &str, count: u64) -> u64 {
        fnv1a(id.as_bytes()) % count.max(1) + 1
    }

    /// Whether the case with this id is in the shard.
    pub fn contains(&self, id: &str) -> bool {
        Shard::of(id, self.count) == self.index
    }

    /// The catalogue's cases in this shard, in catalogue order.
    pub fn select(&self, catalogue: Catalogue) -> Catalogue {
        Catalogue {
            cases: catalogue
                .cases
                .into_iter()
                .filter(|case| self.contains(&case.id))
                .collect(),
        }
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad =
            || format!("--shard takes K/N with 1 <= K <= N (for example 2/4), not \"{text}\"");
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = index.trim().parse().map_err(|_| bad())?;
        let count: u64 = count.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_refuse_with_a_sentence() {
        assert_eq!("2/4".parse(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!("1/1".parse::<Shard>().unwrap().to_string(), "1/1");
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "1/3/5", ""] {
            let error = bad.parse::<Shard>().unwrap_err();
            assert!(
                error.starts_with("--shard takes K/N") && error.contains(bad),
                "{bad}: {error}"
            );
        }
    }

    #[test]
    fn the_hash_is_fnv1a_and_does_not_move() {
        // The published FNV-1a 64 test vectors: the partition is fixed by definition.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn every_case_is_in_exactly_one_shard_and_shards_are_balanced() {
        let ids: Vec<String> = (0..3000)
            .map(|i| format!("area{}/case-{i}", i % 7))
            .collect();
        for count in [1u64, 2, 3, 5, 8] {
            let mut sizes = vec![0usize; count as usize];
            for id in &ids {
                let holders: Vec<u64> = (1..=count)
                    .filter(|index| {
                        Shard {
                            index: *index,
                            count,
                        }
                        .contains(id)
                    })
                    .collect();
                assert_eq!(holders.len(), 1, "{id} among {count}: {holders:?}");
                sizes[holders[0] as usize - 1] += 1;
            }
            let fair = ids.len() / count as usize;
            for size in &sizes {
                assert!(
                    size.abs_diff(fair) * 10 <= fair,
                    "{count} shards: sizes {sizes:?} stray more than 10% from {fair}"
                );
            }
        }
    }

    #[test]
    fn a_case_keeps_its_shard_whatever_else_the_catalogue_holds() {
        let id = "hostile/prototype-pollution";
        let shard = Shard::of(id, 4);
        assert_eq!(Shard::of(id, 4), shard);
        assert!((1..=4).contains(&shard));
        assert_eq!(Shard::of(id, 1), 1);
    }
}
