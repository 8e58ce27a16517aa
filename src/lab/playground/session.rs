//! The page's own copy of the lab, which writes down what it does: every mutation the page
//! makes through a [`Session`] appends its [`Edit`] to an outbox, and the page hands the
//! outbox to the worker behind it ([`Session::take_edits`]). Nothing else writes edits, so
//! the worker's copy gets exactly what happened here, in order: a click in a view that sets
//! C is a `Set`, not a whole new scene. The fingerprint check ([`Playground::follow`]) stays
//! as the safety net for anything that reaches the lab another way.
//!
//! Reading goes straight through to the [`Playground`] (`Deref`); a mutation of the points,
//! the settings or the steps goes through the session's method of the same name, which
//! shadows the playground's.

use super::{Edit, Playground};
use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use std::ops::{Deref, DerefMut};

/// More edits than this waiting (nobody takes them: the page fits by itself) and the whole
/// scene goes instead, so the outbox stays small.
const OUTBOX_LIMIT: usize = 4096;

/// A [`Playground`] that records its edits.
pub struct Session {
    lab: Playground,
    outbox: Vec<Edit>,
    /// The copy behind must take the whole scene (the points were replaced, or too many edits
    /// waited): what the outbox held is covered by it.
    whole: bool,
}

impl Deref for Session {
    type Target = Playground;

    fn deref(&self) -> &Playground {
        &self.lab
    }
}

impl DerefMut for Session {
    fn deref_mut(&mut self) -> &mut Playground {
        &mut self.lab
    }
}

impl Session {
    /// A session on `lab`, with nothing to send yet (the page sends a new scene whole).
    pub fn new(lab: Playground) -> Session {
        Session {
            lab,
            outbox: Vec::new(),
            whole: false,
        }
    }

    fn record(&mut self, edit: Edit) {
        if self.whole {
            return;
        }
        if self.outbox.len() >= OUTBOX_LIMIT {
            self.replaced();
        } else {
            self.outbox.push(edit);
        }
    }

    /// The scene changed in a way only the whole of it describes. (Kept out of line: the
    /// page's module has one copy of it, not one per caller.)
    #[inline(never)]
    fn replaced(&mut self) {
        self.outbox.clear();
        self.whole = true;
    }

    /// The edits made since the last call, in order, or `None` when the copy behind must take
    /// the whole scene ([`Playground::whole_scene`], written when it is sent).
    pub fn take_edits(&mut self) -> Option<Vec<Edit>> {
        let edits = std::mem::take(&mut self.outbox);
        (!std::mem::take(&mut self.whole)).then_some(edits)
    }

    pub fn set(&mut self, key: &str, value: &str) -> Result<(), Error> {
        self.lab.set(key, value)?;
        self.record(Edit::Set {
            key: key.into(),
            value: value.into(),
        });
        Ok(())
    }

    /// Sets each of `settings` in order (what a click in a view asks for); whether any was
    /// given. A refused value stops there with its message.
    pub fn set_all(&mut self, settings: &[(String, String)]) -> Result<bool, Error> {
        for (key, value) in settings {
            self.set(key, value)?;
        }
        Ok(!settings.is_empty())
    }

    /// Adds a point; its edit has the coordinates as stored, to the last bit.
    pub fn add_point(&mut self, p: Point, label: i32) -> Result<usize, Error> {
        let index = self.lab.add_point(p, label)?;
        let [x, y] = self.lab.data().points[index];
        self.record(Edit::Add { x, y, label });
        Ok(index)
    }

    pub fn move_point(&mut self, index: usize, p: Point) -> Result<(), Error> {
        self.lab.move_point(index, p)?;
        let [x, y] = self.lab.data().points[index];
        self.record(Edit::Move { index, x, y });
        Ok(())
    }

    pub fn remove_point(&mut self, index: usize) -> Result<(), Error> {
        self.lab.remove_point(index)?;
        self.record(Edit::Remove { index });
        Ok(())
    }

    pub fn toggle_test(&mut self, index: usize) -> Result<(), Error> {
        self.lab.toggle_test(index)?;
        self.record(Edit::ToggleTest { index });
        Ok(())
    }

    pub fn settle(&mut self) {
        self.lab.settle();
        self.record(Edit::Settle);
    }

    /// One more update of a stepped run; false (and nothing to send) when it has ended.
    pub fn step(&mut self) -> bool {
        let more = self.lab.step();
        if more {
            self.record(Edit::Step);
        }
        more
    }

    pub fn reset_steps(&mut self) {
        self.lab.reset_steps();
        self.record(Edit::ResetSteps);
    }

    pub fn finish_steps(&mut self) {
        self.lab.finish_steps();
        self.record(Edit::FinishSteps);
    }

    /// The pointer is at `at` (none: it left the plot). Whether the picture changes: here, or
    /// behind the page when `behind_follows` (the model there draws lines to the pointer),
    /// and then the copy behind is told where it is.
    pub fn set_pointer(&mut self, at: Option<Point>, behind_follows: bool) -> bool {
        let changed = self.lab.set_pointer(at) || behind_follows;
        if changed {
            self.record(Edit::Pointer { at });
        }
        changed
    }

    pub fn clear(&mut self) {
        self.lab.clear();
        self.replaced();
    }

    pub fn regenerate(&mut self) {
        self.lab.regenerate();
        self.replaced();
    }

    pub fn load_data(&mut self, data: Dataset) {
        self.lab.load_data(data);
        self.replaced();
    }

    pub fn load_csv(&mut self, text: &str) -> Result<(), Error> {
        self.lab.load_csv(text)?;
        self.replaced();
        Ok(())
    }

    pub fn load_file(
        &mut self,
        bytes: &[u8],
        columns: Option<&[crate::core::table::ColumnRef]>,
    ) -> Result<Option<String>, Error> {
        let notice = self.lab.load_file(bytes, columns)?;
        self.replaced();
        Ok(notice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session {
        Session::new(Playground::from_hash(
            "preset=moons&n=40&noise=0.2&seed=3&kernel=rbf&gamma=2",
        ))
    }

    /// What the outbox holds: the edits, or "whole" when the whole scene must go.
    fn taken(s: &mut Session) -> Option<Vec<Edit>> {
        s.take_edits()
    }

    #[test]
    fn each_mutation_records_exactly_its_edit() {
        let mut s = session();
        assert_eq!(taken(&mut s), Some(vec![]));
        let set = |key: &str, value: &str| Edit::Set {
            key: key.into(),
            value: value.into(),
        };
        type Mutation<'a> = &'a dyn Fn(&mut Session);
        let cases: Vec<(Mutation, Edit)> = vec![
            (&|s| s.set("C", "3").unwrap(), set("C", "3")),
            (
                &|s| {
                    s.add_point([0.125, -0.5], 1).unwrap();
                },
                Edit::Add {
                    x: 0.125,
                    y: -0.5,
                    label: 1,
                },
            ),
            (
                &|s| s.move_point(4, [0.3, 0.7]).unwrap(),
                Edit::Move {
                    index: 4,
                    x: 0.3,
                    y: 0.7,
                },
            ),
            (&|s| s.remove_point(2).unwrap(), Edit::Remove { index: 2 }),
            (
                &|s| s.toggle_test(5).unwrap(),
                Edit::ToggleTest { index: 5 },
            ),
            (&|s| s.settle(), Edit::Settle),
            (&|s| s.reset_steps(), Edit::ResetSteps),
            (&|s| s.finish_steps(), Edit::FinishSteps),
            (
                &|s| {
                    assert!(s.set_pointer(Some([0.5, 0.25]), true));
                },
                Edit::Pointer {
                    at: Some([0.5, 0.25]),
                },
            ),
            (
                &|s| {
                    assert!(s.set_all(&[("C".into(), "7".into())]).unwrap());
                },
                set("C", "7"),
            ),
        ];
        for (mutate, edit) in cases {
            mutate(&mut s);
            assert_eq!(taken(&mut s), Some(vec![edit]));
        }
        // A step of a steppable method is one edit; a refused value, a pointer move that
        // changes no picture, and no setting at all record nothing.
        let mut steps = Session::new(Playground::from_hash("model=perceptron&n=20&seed=1"));
        steps.fit();
        assert!(steps.step());
        assert_eq!(taken(&mut steps), Some(vec![Edit::Step]));
        assert!(s.set("C", "many").is_err());
        assert!(!s.set_pointer(Some([0.1, 0.1]), false));
        assert!(!s.set_all(&[]).unwrap());
        assert!(s.move_point(999, [0.0, 0.0]).is_err());
        assert_eq!(taken(&mut s), Some(vec![]));
    }

    /// A copy that follows the outbox fits the same model as the page's copy, drag by drag.
    #[test]
    fn the_outbox_replayed_gives_an_equal_copy() {
        let mut page = session();
        let mut behind = Playground::from_hash(&page.hash());
        page.set("C", "3").unwrap();
        let i = page.add_point([0.1 + 1e-13, -0.2], -1).unwrap();
        for k in 0..5 {
            page.move_point(i, [0.1 * k as f64, 1.0 / 3.0]).unwrap();
        }
        page.toggle_test(3).unwrap();
        page.remove_point(0).unwrap();
        page.set("kernel", "poly").unwrap();
        page.settle();
        let edits = taken(&mut page).unwrap();
        assert_eq!(edits.len(), 11);
        assert!(behind.follow(&edits, page.fingerprint()));
        page.fit();
        behind.fit();
        assert_eq!(page.status(), behind.status());
    }

    /// A click in the validation curve sets C on the page, and the copy behind gets that one
    /// setting, not a whole new scene.
    #[test]
    fn a_view_click_that_sets_c_is_one_set_edit() {
        use crate::views::{view, Cache, Figure};
        let mut page = Session::new(Playground::from_hash(
            "model=svm&kernel=linear&preset=blobs&n=30&folds=3",
        ));
        let mut behind = Playground::from_hash(&page.hash());
        page.fit();
        while page.work_on(&crate::views::curve::CURVE, 100) {}
        let curve = view("curve").unwrap();
        let layout = curve.layout(600, 420, 0.0);
        let Figure::Chart(chart) = Cache::default().figure(curve, &mut page, &layout).clone()
        else {
            panic!("the curve is a chart");
        };
        let plot = chart.panels(&layout)[0].plot();
        let settings = chart.settings_at(&layout, plot.left + 2.0, plot.top + plot.height / 2.0);
        assert_eq!(settings.len(), 1);
        assert_eq!(settings[0].0, "C");
        assert!(page.set_all(&settings).unwrap());
        let edits = taken(&mut page).unwrap();
        assert_eq!(
            edits,
            [Edit::Set {
                key: "C".into(),
                value: settings[0].1.clone(),
            }]
        );
        assert!(behind.follow(&edits, page.fingerprint()));
        assert_eq!(behind.settings().get("C"), page.settings().get("C"));
    }

    /// A scene replaced whole is sent whole; a copy behind that drifted (a change that reached
    /// it, or the page, another way) is caught by the fingerprint and mended by the whole
    /// scene.
    #[test]
    fn replaced_points_go_whole_and_a_drifting_copy_is_resynced() {
        let mut page = session();
        page.set("C", "2").unwrap();
        page.clear();
        assert_eq!(taken(&mut page), None);
        page.add_point([0.5, 0.5], 1).unwrap();
        assert_eq!(taken(&mut page).map(|e| e.len()), Some(1));
        page.regenerate();
        page.set("C", "4").unwrap();
        assert_eq!(taken(&mut page), None, "covered by the whole scene");
        page.load_csv("0,0,1\n1,1,-1\n2,0,1\n").unwrap();
        assert_eq!(taken(&mut page), None);
        assert!(page.load_csv("not, a, file").is_err());
        assert_eq!(taken(&mut page), Some(vec![]));

        let mut behind = Playground::from_hash(&page.hash());
        // The worker's copy changed without the page.
        behind.set("C", "9").unwrap();
        page.move_point(1, [1.5, 0.5]).unwrap();
        let edits = taken(&mut page).unwrap();
        assert!(!behind.follow(&edits, page.fingerprint()));
        assert!(behind.follow(&[page.whole_scene()], page.fingerprint()));
        // The page changed without recording (as an unrecorded path would): caught the same way.
        page.lab.set("C", "5").unwrap();
        assert_eq!(taken(&mut page), Some(vec![]));
        assert!(!behind.follow(&[], page.fingerprint()));
        assert!(behind.follow(&[page.whole_scene()], page.fingerprint()));
    }

    /// Edits nobody takes (the page fits by itself) never pile up: past the limit the whole
    /// scene goes instead.
    #[test]
    fn an_outbox_nobody_takes_stays_small() {
        let mut page = session();
        for k in 0..=OUTBOX_LIMIT {
            page.move_point(0, [k as f64 * 1e-3, 0.0]).unwrap();
        }
        assert!(page.outbox.is_empty());
        assert_eq!(taken(&mut page), None);
        page.settle();
        assert_eq!(taken(&mut page), Some(vec![Edit::Settle]));
    }
}
