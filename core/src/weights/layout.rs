//! The game-agnostic layout of a weight set: named tables with their bounds
//! and tuner step, repeated once per phase, flattened into one vector.
//!
//! A weight set is laid out phase by phase; within a phase, table by table
//! in [`Layout::tables`] order; within a table, entry by entry.
//! [`Layout::index`] maps (phase, table, entry) to the flat index and
//! [`Layout::locate`] maps it back. Every game's registry declares its
//! weights as a `Layout`; weight files, generated sources and the tuner read
//! only this.
//!
//! A table whose shape maps onto itself under a board symmetry has entries
//! that describe the same situation seen from the other side (an edge read
//! left to right and right to left). Such entries form an orbit and share
//! one weight: [`TableSpec::canonical`] names each entry's canonical entry
//! (the smallest of its orbit). The binary weight files store only
//! canonical entries ([`Layout::pack`], [`Layout::unpack`]), the tuner
//! trains one weight per orbit, and [`Layout::tie`] makes a set whose orbits
//! disagree consistent.

use std::sync::Arc;

/// One named weight table of a phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSpec {
    /// Name used in weight files and by the tuner.
    pub name: String,
    /// Number of entries.
    pub len: usize,
    /// Smallest allowed value.
    pub min: i32,
    /// Largest allowed value.
    pub max: i32,
    /// Suggested tuner step.
    pub step: i32,
    /// First entry's index within a phase.
    pub offset: usize,
    /// The canonical entry of each entry (the smallest of its orbit under
    /// the shape's own symmetries); `None` when every entry is its own.
    pub canonical: Option<Arc<[u32]>>,
}

impl TableSpec {
    /// The canonical entry of `entry` (itself in a table with no symmetry).
    #[inline]
    pub fn canonical_entry(&self, entry: usize) -> usize {
        self.canonical.as_ref().map_or(entry, |c| c[entry] as usize)
    }

    /// Number of canonical entries: the weights the table really has.
    pub fn packed_len(&self) -> usize {
        match &self.canonical {
            Some(c) => c.iter().enumerate().filter(|&(e, &k)| k as usize == e).count(),
            None => self.len,
        }
    }
}

/// Bounds of a table's entries: (smallest, largest, tuner step).
pub type Bounds = (i32, i32, i32);

/// Named tables, repeated per phase, in one flat vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Number of phases, each with its own copy of every table.
    pub phases: usize,
    /// The tables of one phase, in layout order.
    pub tables: Vec<TableSpec>,
    /// Number of weights in one phase.
    pub phase_len: usize,
}

impl Layout {
    /// A layout of `phases` phases and no tables yet.
    pub const fn new(phases: usize) -> Self {
        Layout { phases, tables: Vec::new(), phase_len: 0 }
    }

    /// Appends a table of `len` entries within `bounds`; returns its index.
    pub fn push(&mut self, name: &str, len: usize, (min, max, step): Bounds) -> usize {
        debug_assert!(self.table(name).is_none(), "table {name} declared twice");
        self.tables.push(TableSpec {
            name: name.to_string(),
            len,
            min,
            max,
            step,
            offset: self.phase_len,
            canonical: None,
        });
        self.phase_len += len;
        self.tables.len() - 1
    }

    /// Total number of weights.
    pub fn len(&self) -> usize {
        self.phases * self.phase_len
    }

    /// True when there are no weights.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The flat index of `entry` of `table` in `phase`.
    #[inline]
    pub fn index(&self, phase: usize, table: usize, entry: usize) -> usize {
        debug_assert!(entry < self.tables[table].len);
        phase * self.phase_len + self.tables[table].offset + entry
    }

    /// The table named `name`, if any.
    pub fn table(&self, name: &str) -> Option<usize> {
        self.tables.iter().position(|t| t.name == name)
    }

    /// The (phase, table, entry) a flat index belongs to.
    pub fn locate(&self, index: usize) -> (usize, usize, usize) {
        let (phase, rest) = (index / self.phase_len, index % self.phase_len);
        let table = self.tables.iter().rposition(|t| t.offset <= rest).expect("offset 0 exists");
        (phase, table, rest - self.tables[table].offset)
    }

    /// The table spec of flat index `index`.
    pub fn spec_of(&self, index: usize) -> &TableSpec {
        &self.tables[self.locate(index).1]
    }

    /// Declares the orbits of `table`: `canonical[e]` is the smallest entry
    /// of entry `e`'s orbit. A map in which every entry is its own is not
    /// kept.
    ///
    /// # Panics
    /// When the map does not fit the table or is not canonical (an entry
    /// pointing above itself or to an entry that is not its own canonical).
    pub fn set_canonical(&mut self, table: usize, canonical: Vec<u32>) {
        let spec = &mut self.tables[table];
        assert_eq!(canonical.len(), spec.len, "orbits of table {}", spec.name);
        for (e, &k) in canonical.iter().enumerate() {
            let k = k as usize;
            assert!(k <= e && canonical[k] as usize == k, "table {}: entry {e} maps to {k}", spec.name);
        }
        let trivial = canonical.iter().enumerate().all(|(e, &k)| k as usize == e);
        spec.canonical = if trivial { None } else { Some(canonical.into()) };
    }

    /// The flat canonical index of every flat index (a lookup table for
    /// code that maps many features).
    pub fn canonical_map(&self) -> Vec<u32> {
        let mut map = Vec::with_capacity(self.len());
        for phase in 0..self.phases {
            for (table, spec) in self.tables.iter().enumerate() {
                let start = self.index(phase, table, 0);
                map.extend((0..spec.len).map(|e| (start + spec.canonical_entry(e)) as u32));
            }
        }
        map
    }

    /// Number of canonical weights: what a packed weight set holds.
    pub fn packed_len(&self) -> usize {
        self.phases * self.tables.iter().map(TableSpec::packed_len).sum::<usize>()
    }

    /// The canonical entries of `values` (a full set), in layout order.
    pub fn pack<T: Copy>(&self, values: &[T]) -> Vec<T> {
        debug_assert_eq!(values.len(), self.len());
        let mut packed = Vec::with_capacity(self.packed_len());
        for phase in 0..self.phases {
            for (table, spec) in self.tables.iter().enumerate() {
                let start = self.index(phase, table, 0);
                let entries = &values[start..start + spec.len];
                match &spec.canonical {
                    None => packed.extend_from_slice(entries),
                    Some(canonical) => packed.extend(
                        entries
                            .iter()
                            .zip(canonical.iter())
                            .enumerate()
                            .filter(|&(e, (_, &k))| k as usize == e)
                            .map(|(_, (&v, _))| v),
                    ),
                }
            }
        }
        packed
    }

    /// The full set of a packed one: every entry takes its canonical
    /// entry's value.
    pub fn unpack<T: Copy>(&self, packed: &[T]) -> Vec<T> {
        debug_assert_eq!(packed.len(), self.packed_len());
        let mut full = Vec::with_capacity(self.len());
        let mut next = 0;
        for _ in 0..self.phases {
            for spec in &self.tables {
                let start = full.len();
                match &spec.canonical {
                    None => {
                        full.extend_from_slice(&packed[next..next + spec.len]);
                        next += spec.len;
                    }
                    Some(canonical) => {
                        for (e, &k) in canonical.iter().enumerate() {
                            if k as usize == e {
                                full.push(packed[next]);
                                next += 1;
                            } else {
                                full.push(full[start + k as usize]);
                            }
                        }
                    }
                }
            }
        }
        full
    }

    /// Copies each canonical entry's value to the rest of its orbit.
    pub fn share<T: Copy>(&self, values: &mut [T]) {
        for (i, &k) in self.canonical_map().iter().enumerate() {
            values[i] = values[k as usize];
        }
    }

    /// Gives every orbit the mean of its values (rounded to the nearest,
    /// halves away from zero), so that the entries of an orbit agree.
    pub fn tie(&self, values: &mut [i16]) {
        let map = self.canonical_map();
        let mut sums: Vec<(i64, i64)> = vec![(0, 0); values.len()];
        for (i, &k) in map.iter().enumerate() {
            let slot = &mut sums[k as usize];
            slot.0 += i64::from(values[i]);
            slot.1 += 1;
        }
        for (i, &k) in map.iter().enumerate() {
            let (sum, count) = sums[k as usize];
            values[i] = (sum as f64 / count as f64).round() as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_lays_tables_out_contiguously_and_locate_inverts_index() {
        let mut layout = Layout::new(3);
        let a = layout.push("a", 4, (-1, 1, 1));
        let b = layout.push("b", 1, (0, 9, 2));
        let c = layout.push("c", 6, (-5, 5, 1));
        assert_eq!((a, b, c), (0, 1, 2));
        assert_eq!(layout.phase_len, 11);
        assert_eq!(layout.len(), 33);
        assert_eq!(layout.tables[c].offset, 5);
        let mut next = 0;
        for phase in 0..layout.phases {
            for (t, spec) in layout.tables.iter().enumerate() {
                for e in 0..spec.len {
                    assert_eq!(layout.index(phase, t, e), next);
                    assert_eq!(layout.locate(next), (phase, t, e));
                    next += 1;
                }
            }
        }
        assert_eq!(next, layout.len());
        assert_eq!(layout.table("b"), Some(1));
        assert_eq!(layout.spec_of(15).name, "b");
    }

    #[test]
    fn orbits_pack_unpack_share_and_tie() {
        let mut layout = Layout::new(2);
        layout.push("plain", 2, (-9, 9, 1));
        let t = layout.push("mirrored", 4, (-9, 9, 1));
        // Entries 1 and 2 are one orbit; 0 and 3 are their own.
        layout.set_canonical(t, vec![0, 1, 1, 3]);
        assert_eq!(layout.packed_len(), 2 * 5);
        let map = layout.canonical_map();
        assert_eq!(map[4], 3);
        assert_eq!(map[6 + 4], 6 + 3);
        assert_eq!(map[5], 5);
        let mut values: Vec<i16> = vec![1, 2, 3, 4, 7, 5, -1, -2, -3, -4, -6, -5];
        layout.tie(&mut values);
        // Orbit means: (4 + 7) / 2 = 5.5 -> 6; (-4 - 6) / 2 = -5.
        assert_eq!(values, [1, 2, 3, 6, 6, 5, -1, -2, -3, -5, -5, -5]);
        let packed = layout.pack(&values);
        assert_eq!(packed, [1, 2, 3, 6, 5, -1, -2, -3, -5, -5]);
        assert_eq!(layout.unpack(&packed), values);
        let mut shared = values.clone();
        shared[4] = 100;
        layout.share(&mut shared);
        assert_eq!(shared, values);
        // A map with no orbit is not kept.
        layout.set_canonical(0, vec![0, 1]);
        assert!(layout.tables[0].canonical.is_none());
    }

    #[test]
    #[should_panic(expected = "maps to")]
    fn a_map_pointing_above_itself_is_refused() {
        let mut layout = Layout::new(1);
        let t = layout.push("t", 2, (-1, 1, 1));
        layout.set_canonical(t, vec![1, 1]);
    }
}
