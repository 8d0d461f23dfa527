//! The plain word lists of cues.txt and references.txt, one field each,
//! named as the file names them (see their headers): declared once, so a
//! list added to a file is a line here and nothing else.

use crate::text::utterance::WordList;

/// Declares the lists: `field` is read from the file's key of the same
/// name, `field: "key"` from another key (`postpone.school`).
macro_rules! lists {
    ($($field:ident $(: $key:literal)?,)*) => {
        /// The plain lists of cues.txt and references.txt.
        #[derive(Debug, Clone, Default, PartialEq, Eq)]
        pub(crate) struct Lists {
            $(pub $field: WordList,)*
        }

        impl Lists {
            /// The list a file's `key` fills, if it is one of these.
            pub(super) fn slot(&mut self, key: &str) -> Option<&mut WordList> {
                $(if key == lists!(@key $field $($key)?) {
                    return Some(&mut self.$field);
                })*
                None
            }
        }
    };
    (@key $field:ident $key:literal) => { $key };
    (@key $field:ident) => { stringify!($field) };
}

lists! {
    question,
    polite,
    negation_gap,
    still_lead,
    still_final,
    dismiss,
    lead,
    name_stop,
    school_suffix,
    school_suffix_weak,
    major_suffix,
    major_suffix_weak,
    weak_follow,
    direction_trim,
    direction_stop,
    not_in_name,
    pronoun_bare,
    asked_for,
    benefactive,
    person_noun,
    non_person_noun,
    classifier,
    ordinal_follow,
    from_end_prefix,
    range_prefix,
    number_suffix,
    date_word,
    surname_mark,
    determiner,
    postpone,
    postpone_school: "postpone.school",
    postpone_major: "postpone.major",
    place_jobs,
    own_wish,
    other_subject,
    wish,
    ask_for,
    same_field,
    same_school,
    place_back,
    advisors_link,
    advisor_noun,
    hesitation,
    restatement,
    city_lead,
    city_follow,
    function,
    name_talk,
    merged_into,
}
