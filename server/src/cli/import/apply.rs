//! Writing a plan to the database through [`crate::store::roster`]: each
//! good row found or not among the stored advisors, what differs, and the
//! one transaction that writes it all (or, in a dry run or when bad lines
//! stop it, nothing).

use crate::db::Pool;
use crate::store::roster;

use super::{BadLine, Change, ImportPlan, Options, Outcome, Report, Row};

/// Writes a plan in one write transaction: new advisors added, changed
/// ones updated, nothing written when bad lines stop it (no `skip_bad`)
/// or in a dry run. Moves the roster version on when anything changed.
pub async fn apply(
    pool: &Pool,
    plan: &ImportPlan,
    options: Options,
) -> Result<Report, sqlx::Error> {
    // A dry run reads only; a real one holds the write lock from the start,
    // so what it read is still true when it writes.
    let mut tx = if options.dry_run {
        pool.begin().await?
    } else {
        crate::db::begin_write(pool).await?
    };
    let mut report = Report {
        dry_run: options.dry_run,
        bad: plan.bad.clone(),
        ..Report::default()
    };
    // (row, the stored advisor it updates) per line that will be written.
    let mut work: Vec<(&Row, Option<roster::Stored>)> = Vec::new();
    for row in &plan.rows {
        let mut found = roster::find(&mut tx, row.school_id, row.major_id, &row.name).await?;
        if found.len() > 1 {
            report.bad.push(BadLine {
                line: row.line,
                reason: format!(
                    "{} / {} 已有 {} 位「{}」，无法确定要更新哪一位",
                    row.school,
                    row.major,
                    found.len(),
                    row.name
                ),
            });
            continue;
        }
        let stored = found.pop();
        let change = change(row, stored.as_ref());
        if change == Change::Added {
            let pair = (row.school.clone(), row.major.clone());
            if !report.new_pairs.contains(&pair)
                && !roster::pair_has_advisors(&mut tx, row.school_id, row.major_id).await?
            {
                report.new_pairs.push(pair);
            }
        }
        if change != Change::Unchanged {
            work.push((row, stored));
        }
        report.outcomes.push(Outcome {
            line: row.line,
            name: row.name.clone(),
            title: row.title.clone(),
            school: row.school.clone(),
            major: row.major.clone(),
            change,
        });
    }
    report.bad.sort_by_key(|b| b.line);
    report.stopped = plan.unusable || (!report.bad.is_empty() && !options.skip_bad);
    if options.dry_run || report.stopped || work.is_empty() {
        tx.rollback().await?;
        return Ok(report);
    }
    for (row, stored) in work {
        match stored {
            None => {
                roster::insert(
                    &mut tx,
                    &roster::Entry {
                        name: &row.name,
                        title: &row.title,
                        school_id: row.school_id,
                        major_id: row.major_id,
                        directions: &row.directions,
                        bio: &row.bio,
                    },
                )
                .await?;
            }
            Some(s) => {
                let directions = (s.directions != row.directions).then_some(&row.directions[..]);
                roster::update(&mut tx, s.id, &row.title, &row.bio, directions).await?;
            }
        }
    }
    // New advisors are findable by name as soon as they are visible.
    crate::store::search::index_missing(&mut tx).await?;
    roster::bump_version(&mut tx).await?;
    tx.commit().await?;
    report.written = true;
    Ok(report)
}

/// What writing `row` does to the advisor stored under its identity, if any.
fn change(row: &Row, stored: Option<&roster::Stored>) -> Change {
    let Some(s) = stored else {
        return Change::Added;
    };
    let mut fields = Vec::new();
    if s.title != row.title {
        fields.push("职称");
    }
    if s.directions != row.directions {
        fields.push("研究方向");
    }
    if s.bio != row.bio {
        fields.push("简介");
    }
    if fields.is_empty() {
        Change::Unchanged
    } else {
        Change::Updated(fields)
    }
}
