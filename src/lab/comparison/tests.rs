use super::*;
use crate::core::task::Task;
use crate::lab::playground::Edit;
use crate::methods::registry::methods_of;

const SCENE: &str = "preset=moons&n=30&noise=0.2&seed=3&kernel=rbf&gamma=2&C=1";

fn opened(hash: &str) -> Comparison<Session> {
    let (comparison, warnings) = Comparison::<Session>::open([(), ()], hash).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    comparison
}

fn setting(comparison: &Comparison<Session>, side: Side, key: &str) -> String {
    comparison
        .side(side)
        .settings()
        .get(key)
        .unwrap()
        .to_string()
}

#[test]
fn compare_on_opens_the_left_as_it_is_and_edits_the_right() {
    let mut page = opened(SCENE);
    assert!(!page.comparing());
    page.add_point(Side::Left, [0.25, -0.5], 1).unwrap();
    assert!(page.compare(true).unwrap());
    assert!(!page.compare(true).unwrap(), "already on");
    assert!(page.comparing());
    assert_eq!(page.editing(), Side::Right);
    assert_eq!(page.side(Side::Right).hash(), page.side(Side::Left).hash());
    // Off: one side again, the left edited.
    assert!(page.compare(false).unwrap());
    assert_eq!(page.editing(), Side::Left);
    page.choose(Side::Right);
    assert_eq!(page.editing(), Side::Left, "no right to edit");
}

#[test]
fn a_shared_setting_is_set_on_both_sides_and_a_models_on_the_side_edited() {
    let mut page = opened(SCENE);
    page.compare(true).unwrap();
    page.set("C", "7").unwrap();
    assert_eq!(setting(&page, Side::Right, "C"), "7");
    assert_eq!(setting(&page, Side::Left, "C"), "1");
    page.choose(Side::Left);
    page.set("kernel", "poly").unwrap();
    assert_eq!(setting(&page, Side::Left, "kernel"), "poly");
    assert_eq!(setting(&page, Side::Right, "kernel"), "rbf");
    // The points' settings, the views and the window: both.
    for (key, value) in [
        ("noise", "0.3"),
        ("views", "a-view"),
        ("window", "-3,3,-2,2"),
    ] {
        page.set(key, value).unwrap();
        for side in [Side::Left, Side::Right] {
            assert_eq!(setting(&page, side, key), value, "{key}");
        }
    }
    assert_eq!(
        page.side(Side::Left).data(),
        page.side(Side::Right).data(),
        "the same points after a new noise"
    );
    // A value refused sets nothing and says why.
    let refused = page.set("noise", "-1").unwrap_err().to_string();
    assert!(refused.contains("noise"), "{refused}");
    assert_eq!(setting(&page, Side::Left, "noise"), "0.3");
    assert_eq!(setting(&page, Side::Right, "noise"), "0.3");
}

#[test]
fn a_point_added_or_moved_on_either_plot_is_the_same_on_both() {
    let mut page = opened(SCENE);
    page.compare(true).unwrap();
    let index = page
        .add_point(Side::Right, [0.1 + 0.2, -1.0 / 3.0], 1)
        .unwrap();
    page.move_point(Side::Left, 2, [0.7, 0.123_456_789_012_345_6])
        .unwrap();
    page.toggle_test(index).unwrap();
    page.remove_point(0).unwrap();
    let (left, right) = (page.side(Side::Left), page.side(Side::Right));
    assert_eq!(left.data(), right.data());
    assert_eq!(left.test(), right.test());
    assert_eq!(left.data().len(), 30);
    assert!(left.test()[index - 1]);
    assert_eq!(left.hash(), right.hash(), "nothing but the points changed");
    // Each side wrote its own edits for the copy behind the page, the same ones.
    let mut page = page;
    let edits_left = page.side_mut(Side::Left).take_edits().unwrap();
    let edits_right = page.side_mut(Side::Right).take_edits().unwrap();
    assert_eq!(edits_left, edits_right);
    assert!(
        matches!(edits_left[0], Edit::Add { label: 1, .. }),
        "{edits_left:?}"
    );
}

#[test]
fn the_link_carries_the_rights_own_settings_and_opens_both_sides_again() {
    let mut page = opened(SCENE);
    page.add_point(Side::Left, [0.5, 0.5], 0).unwrap();
    page.compare(true).unwrap();
    // Another method of the task on the right.
    let other = methods_of(Task::Classification).nth(1).unwrap().id();
    page.set("model", other).unwrap();
    page.set("views", "a-view").unwrap();
    let hash = page.hash();
    let (left, right) = hash.split_once("&compare=").unwrap();
    assert_eq!(left, page.side(Side::Left).hash());
    assert!(right.contains(&format!("model%3D{other}")), "{right}");
    assert!(
        !right.contains("points"),
        "the points are the left's: {right}"
    );
    assert!(
        !right.contains("views"),
        "the views are the left's: {right}"
    );
    let again = opened(&hash);
    assert!(again.comparing());
    for side in [Side::Left, Side::Right] {
        assert_eq!(again.side(side).hash(), page.side(side).hash());
    }
    assert_eq!(again.hash(), hash);
    assert_eq!(page.link(), Some(hash));
}

#[test]
fn a_refused_link_leaves_the_scene_as_it_was() {
    let mut page = opened(SCENE);
    page.compare(true).unwrap();
    page.set("C", "4").unwrap();
    let before = page.hash();
    let refusal = page.reopen("#C=0&compare=C%3D2").unwrap_err();
    assert_eq!(refusal, "its C is damaged: C <= 0");
    let refusal = page.reopen("#C=2&compare=kernel%3Dcubic").unwrap_err();
    assert!(refusal.contains("right-hand side's kernel"), "{refusal}");
    assert_eq!(page.hash(), before);
    assert_eq!(page.editing(), Side::Right);
    // Opened whole, a link without a right ends the comparison.
    let warnings = page.reopen("#C=3&glow=2").unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(!page.comparing());
    assert_eq!(page.editing(), Side::Left);
}

#[test]
fn undo_and_redo_reopen_whole_scenes_compare_included() {
    let mut page = opened(SCENE);
    page.start_history();
    assert!(!page.can_undo());
    let first = page.hash();
    page.set("C", "5").unwrap();
    assert!(page.settle(), "a new scene");
    assert!(!page.settle(), "the same scene is no step");
    page.compare(true).unwrap();
    page.set("kernel", "linear").unwrap();
    page.add_point(Side::Right, [0.4, 0.4], 1).unwrap();
    assert!(page.settle());
    let compared = page.hash();
    assert!(page.can_undo());

    assert!(page.undo().is_some());
    assert!(!page.comparing(), "the scene before compare was on");
    assert_eq!(setting(&page, Side::Left, "C"), "5");
    assert_eq!(page.side(Side::Left).data().len(), 30);
    assert!(page.undo().is_some());
    assert_eq!(page.hash(), first);
    assert!(page.undo().is_none(), "nothing more to undo");
    assert!(page.redo().is_some());
    assert!(page.redo().is_some());
    assert_eq!(page.hash(), compared);
    assert!(page.comparing());
    assert_eq!(setting(&page, Side::Right, "kernel"), "linear");
    assert_eq!(page.side(Side::Left).data().len(), 31);
    assert!(page.redo().is_none());
    // An edit after an undo drops what redo would have reopened.
    page.undo().unwrap();
    page.set("C", "9").unwrap();
    assert!(page.settle());
    assert!(!page.can_redo());
}

#[test]
fn a_scene_too_large_for_a_link_is_no_step() {
    let mut page = opened(SCENE);
    page.start_history();
    page.set("C", "2").unwrap();
    page.settle();
    // About 120 000 points: their link passes the limit.
    let text: String = (0..120_000)
        .map(|i| {
            format!(
                "{:.6},{:.6},{}\n",
                i as f64 * 1e-5,
                -(i as f64) * 1e-5,
                i % 2
            )
        })
        .collect();
    page.load_file(text.as_bytes(), None).unwrap();
    assert!(page.link().is_none());
    assert_eq!(page.side(Side::Left).data().len(), 120_000);
    assert!(page.settle());
    assert_eq!(page.history_current(), Some(None));
    // Undo goes back to the scene before it.
    page.undo().unwrap();
    assert_eq!(setting(&page, Side::Left, "C"), "2");
    assert_eq!(page.side(Side::Left).data().len(), 30);
    assert!(!page.can_redo(), "the large scene cannot come back");
}
