//! Edits of the scene: a setting changed by its URL key (a preset chosen as the menu chooses
//! it, a new task starting from its own first preset), the points replaced (a preset, a loaded
//! file, a cleared plot), split again into training and held-out points, or one point added,
//! moved, removed or turned into a test point. Each edit is reported to the methods' kept
//! states as it happens (a moved point patches the kernel cache, an added one gets α = 0), or as
//! new data when the points are standardised, since then every z = (x − μ)/σ moves.

use super::Playground;
use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::params::Effect;

/// The key a click on the trace sets: how many updates to show when stepping (not a setting
/// of the URL table; see [`Playground::set`]).
pub const STEPS_KEY: &str = "steps";

impl Playground {
    /// Changes one setting (by its URL key); on error nothing changes. [`STEPS_KEY`] steps to
    /// that many updates (clicking the trace). A preset is chosen as the menu chooses it
    /// ([`Settings::choose_preset`](crate::lab::state::Settings::choose_preset)).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), Error> {
        if key == STEPS_KEY {
            let steps = value
                .trim()
                .parse::<usize>()
                .map_err(|_| Error::Parameter(format!("steps: '{value}' is not a count")))?;
            self.steps = Some(steps);
            self.changed();
            return Ok(());
        }
        self.version += 1;
        if let Some(tuned) = self.settings.method().tuning().iter().find(|k| **k == key) {
            self.last_tuned = Some(tuned);
        }
        let was_standardised = self.standardised();
        // Choosing a preset brings its lesson's settings (those not changed by hand).
        let effect = if key == "preset" {
            self.settings.choose_preset(value)?
        } else {
            self.settings.set(key, value)?
        };
        // A new task on an untouched preset of the old one starts from the new task's own
        // first preset; points the student placed or loaded stay.
        let (preset, ..) = self.settings.preset();
        if key == crate::lab::state::TASK_KEY && !self.edited && preset.task() != self.settings.task
        {
            if let Some(first) = crate::core::data::Preset::ALL
                .into_iter()
                .find(|p| p.task() == self.settings.task)
            {
                self.settings.choose_preset(first.name())?;
                self.regenerate();
            }
        }
        if self.standardised() != was_standardised {
            // The solvers' kept states hold the points in the other units.
            self.warm.values_mut().for_each(|w| w.data_replaced());
        }
        match effect {
            Effect::Refit => self.needs_fit = true,
            Effect::Regenerate => self.regenerate(),
            Effect::Resplit => self.resplit(),
            Effect::Redraw => {}
        }
        Ok(())
    }

    /// Replaces the points by the preset's.
    pub fn regenerate(&mut self) {
        let data = self.settings.generate();
        self.settings.window = None;
        self.replace_data(data);
        self.edited = false;
    }

    /// Holds out a fresh stratified share of the points, as the test fraction and seed say.
    pub fn resplit(&mut self) {
        self.test = self.settings.split(&self.data);
        self.warm.values_mut().for_each(|w| w.data_replaced());
        self.points_changed();
    }

    /// Turns point `index` from a training point into a test point or back.
    pub fn toggle_test(&mut self, index: usize) -> Result<(), Error> {
        let role = self
            .test
            .get_mut(index)
            .ok_or_else(|| Error::Parameter(format!("no point with index {index}")))?;
        *role = !*role;
        self.warm.values_mut().for_each(|w| w.data_replaced());
        self.edited = true;
        self.points_changed();
        Ok(())
    }

    /// Replaces the points (a loaded file, a shared link).
    pub fn replace_data(&mut self, data: Dataset) {
        self.test = self.settings.split(&data);
        self.data = data;
        self.edited = true;
        self.warm.values_mut().for_each(|w| w.data_replaced());
        self.highlight = None;
        self.points_changed();
    }

    /// Replaces the points by a file's, and the window goes back to fitting them.
    pub fn load_data(&mut self, data: Dataset) {
        self.settings.window = None;
        self.replace_data(data);
    }

    /// Replaces the points with those of a CSV or LIBSVM-format file ([`Dataset::from_text`]);
    /// on error the current points stay.
    pub fn load_csv(&mut self, text: &str) -> Result<(), Error> {
        let data = Dataset::from_text(text)?;
        self.load_data(data);
        Ok(())
    }

    /// Replaces the points with those of a file's bytes, read for the scene's task as the
    /// command line reads them ([`crate::core::data::files`]), from `columns` (the defaults when
    /// `None`); on error the current points stay. Returns the sentence to show when part of
    /// the file was left out (a novelty file's labels).
    pub fn load_file(
        &mut self,
        bytes: &[u8],
        columns: Option<&[crate::core::table::ColumnRef]>,
    ) -> Result<Option<String>, Error> {
        let reading = crate::core::data::files::read_for(self.settings.task, bytes, columns)?;
        self.load_data(reading.data);
        Ok(reading.notice)
    }

    /// Removes every point; the window goes back to fitting them.
    pub fn clear(&mut self) {
        self.settings.window = None;
        self.replace_data(Dataset::new());
    }

    /// The first `limit` points as a link writes them, `x,y,label` (`x,y,label,t` for a test
    /// point) joined by `;`, each coordinate as it was written; also for an untouched preset.
    pub fn points_text(&self, limit: usize) -> String {
        (0..self.data.len().min(limit))
            .map(|i| crate::lab::state::point_text(&self.data, &self.test, i))
            .collect::<Vec<_>>()
            .join(";")
    }

    pub fn add_point(&mut self, p: Point, label: i32) -> Result<usize, Error> {
        let index = self.data.push(p, label)?;
        self.test.push(false);
        if self.standardised() {
            self.warm.values_mut().for_each(|w| w.data_replaced());
        } else {
            self.warm.values_mut().for_each(|w| w.point_added());
        }
        self.edited = true;
        self.points_changed();
        Ok(index)
    }

    pub fn move_point(&mut self, index: usize, p: Point) -> Result<(), Error> {
        self.data.move_point(index, p)?;
        self.edited = true;
        self.points_changed();
        if self.standardised() {
            self.warm.values_mut().for_each(|w| w.data_replaced());
        } else if let Some(position) = self.train_position(index) {
            let points = &super::train_of(&self.data, &self.held_in).points;
            self.warm
                .values_mut()
                .for_each(|w| w.point_moved(position, points));
        }
        Ok(())
    }

    pub fn remove_point(&mut self, index: usize) -> Result<(), Error> {
        let position = self.train_position(index);
        self.data.remove(index)?;
        self.test.remove(index);
        if self.standardised() {
            self.warm.values_mut().for_each(|w| w.data_replaced());
        } else if let Some(position) = position {
            self.warm
                .values_mut()
                .for_each(|w| w.point_removed(position));
        }
        self.highlight = None;
        self.edited = true;
        self.points_changed();
        Ok(())
    }
}
