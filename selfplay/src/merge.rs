//! `selfplay merge`: joins the folders of a run's shards into one folder.

use crate::job::{Job, read_job};
use crate::record::{self, RUN_FILE, Store};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Merges shard folders `sources` into `out`: the jobs must agree (but for
/// the shard), every game must belong to its folder's shard and appear
/// once, and every position and GGF record must belong to a game. Games and
/// their GGF records are written in id order, positions folder by folder.
pub fn merge(out: &Path, sources: &[PathBuf]) -> Result<String, String> {
    if sources.is_empty() {
        return Err("merge: expected at least one source folder".into());
    }
    if out.join(record::GAMES_FILE).exists() {
        return Err(format!("{}: already holds games; merge into a new folder", out.display()));
    }
    let mut job: Option<Job> = None;
    let mut games = Vec::new();
    let mut seen = HashSet::new();
    let mut shards = HashSet::new();
    for src in sources {
        let path = src.join(RUN_FILE);
        let mut this = read_job(&path)?;
        let shard = this.shard.take();
        if shard.is_some_and(|s| !shards.insert(s.index)) {
            let s = shard.expect("checked");
            return Err(format!("{}: shard {}/{} appears twice", src.display(), s.index, s.count));
        }
        match &job {
            None => job = Some(this),
            Some(j) if *j == this => {}
            Some(_) => return Err(format!("{}: a different run than {}", path.display(), sources[0].display())),
        }
        for g in record::read_games(&src.join(record::GAMES_FILE))? {
            if shard.is_some_and(|s| !s.owns(g.game)) {
                return Err(format!("{}: game {} is not in shard {:?}", src.display(), g.game, shard));
            }
            if !seen.insert(g.game) {
                return Err(format!("{}: game {} appears in two folders", src.display(), g.game));
            }
            games.push(g);
        }
    }
    let job = job.expect("at least one source");
    games.sort_by_key(|g| g.game);
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let (mut store, _) = Store::open(out)?;
    let mut positions = 0u64;
    let mut ggf = std::collections::HashMap::new();
    for src in sources {
        let mine: HashSet<u64> = record::read_games(&src.join(record::GAMES_FILE))?.iter().map(|g| g.game).collect();
        let ggf_path = src.join(record::GGF_FILE);
        if ggf_path.exists() {
            for (id, line) in record::read_ggf(&ggf_path)? {
                if !mine.contains(&id) {
                    return Err(format!("{}: GGF record of game {id} without a game row", ggf_path.display()));
                }
                ggf.insert(id, line);
            }
        }
        let mut batch = Vec::new();
        record::read_positions(&src.join(record::POSITIONS_FILE), |p| {
            if !mine.contains(&p.game) {
                return Err(format!("{}: position of game {} without a game row", src.display(), p.game));
            }
            batch.push(p);
            if batch.len() >= 4096 {
                store.append_positions(&batch)?;
                positions += batch.len() as u64;
                batch.clear();
            }
            Ok(())
        })?;
        store.append_positions(&batch)?;
        positions += batch.len() as u64;
    }
    for g in &games {
        store.append(g, &[], ggf.get(&g.game).map(String::as_str))?;
    }
    let value = serde_json::json!({
        "command": std::env::args().collect::<Vec<_>>(),
        "job": job,
        "merged_from": sources,
        "engine_version": env!("CARGO_PKG_VERSION"),
    });
    record::write_json(&out.join(RUN_FILE), &value)?;
    Ok(format!(
        "merged {} games and {positions} positions from {} folders into {}",
        games.len(),
        sources.len(),
        out.display()
    ))
}
