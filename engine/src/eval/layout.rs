//! The game-agnostic layout of a weight set: named tables with their bounds
//! and tuner step, repeated once per phase, flattened into one vector.
//!
//! A weight set is laid out phase by phase; within a phase, table by table
//! in [`Layout::tables`] order; within a table, entry by entry.
//! [`Layout::index`] maps (phase, table, entry) to the flat index and
//! [`Layout::locate`] maps it back. Every game's registry declares its
//! weights as a `Layout`; weight files, generated sources and the tuner read
//! only this.

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
        self.tables.push(TableSpec { name: name.to_string(), len, min, max, step, offset: self.phase_len });
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
}
