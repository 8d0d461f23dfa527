//! Text helpers shared by the agent, the review coach and the posting rules
//! (nothing here knows about reviews or the agent):
//!
//! - [`fold`]: one canonical spelling of a text — half-width, simplified,
//!   lower-case, digits for spelled-out numbers, separators dropped — with a
//!   map back to the original characters, so a match found in the folded
//!   text is reported where the writer wrote it.
//! - [`words`]: word lists searched in one pass (Aho–Corasick), so a check
//!   stays linear in the length of the text however long the lists grow.
//! - [`lexfile`]: the `key: term | term` format of `server/lexicons/`.
//! - [`templates`]: reply templates with variants and `{name}` placeholders.
//! - [`jsonl`]: JSON Lines, the format of the evaluation sets.
//! - [`names`]: the terms a name is searched by (its parts, pinyin,
//!   initials) and the key a typed query is looked up by.
//! - [`clauses`], [`opinion`], [`numbers`]: a message cut into clauses, what
//!   each says of a topic and how strongly, the scores it gives.
//! - [`separable`]: separable verbs said apart ("发了很大的火") joined
//!   into the word the lexicons hold (发火).
//! - [`similar`]: how alike two texts are.
//! - [`sound`]: names found by how they sound (a recognizer's homophones,
//!   pinyin typed without an input method, initials).
//! - [`utterance`], [`trie`]: one short utterance as the agent's
//!   understanding reads it — the spelling every lexicon term is stored in
//!   (fold, punctuation as one clause separator, spaces only between Latin
//!   words), short word lists, and the leftmost-longest trie every lexicon
//!   goes through — so that the agent reads text here, like everyone else.

pub mod clauses;
pub mod fold;
pub mod jsonl;
pub mod lexfile;
pub mod names;
pub mod numbers;
pub mod opinion;
pub mod separable;
pub mod similar;
pub mod sound;
pub mod templates;
pub mod trie;
pub mod utterance;
pub mod words;
