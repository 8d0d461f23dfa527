//! One turn of the agent as an explicit graph: named steps, each a small
//! module of this folder, the edges in one function ([`next`]), one loop
//! with a step cap ([`Agent::walk`]). Code decides every edge; a language
//! model, when configured, is one step (`model`) whose proposal code merges
//! into what it understood itself.
//!
//! ```text
//!  prepared ─▶ session ─┬─ chip clicked ─▶ chip ──────────────────────────────┐
//!                       ├─ draft open ───▶ coach ─────────────────────────────┼──▶ save ─▶ end
//!                       │                    └─ not about the review ─▶ intent
//!                       └─▶ intent ─┬─ greeting / meaningless / reset ────────┤
//!                                   └─▶ understand ─┬─ "第二个" to the chips ─▶ chip
//!                                                   ├─ "先不用" to an offer ──────────┤
//!                                                   ├─ nothing understood, model ─▶ classify ─┬─ greeting / read_back ─┤
//!                                                   │                                         └─▶ resolve
//!                                                   └─▶ resolve ─┬─ "我想评价" ─▶ review ─┤
//!                                                              └─▶ persona ─┬─ casual ─▶ casual ─┤
//!                                                                           └─▶ plan ─┐         │
//!        ┌──────────────────────── model configured ◀───────────────────────────────┤         │
//!        └─▶ model ─▶ merge ─┐                                                     │         │
//!  chip ────────────────────┴─────────────────────────────────────────▶ validate ◀─┘         │
//!  validate ─▶ steer ─▶ execute ─┬─▶ narrate ──────────────────────────────────────────────┤
//!                                └─ no such advisor / data failed ─────────────────────────┤
//!  plan or merge with nothing that answers ─▶ apology ──────────────────────────────────────┘
//! ```
//!
//! - [`session`]: the open review draft, if any (the coach then has the turn).
//! - [`chip`]: a clicked chip sets its field, by code alone.
//! - [`coach`]: the review coach's graph — and `review`, which
//!   opens a review conversation about the resolved advisor.
//! - [`intent`]: the speech act of the message, greeting,
//!   meaningless input and reset (on a direct instruction only).
//! - [`understand`]: code's NLU on the student's own clauses, always — with
//!   or without a model; negated values leave the form; an answer in words
//!   to the chips on screen becomes their click; a yes to a place answer's
//!   offer ("看看导师排名？") names that place, a no ends the turn.
//! - [`classify`]: the model's intent classification, only for a message code
//!   understood nothing of; acted on above a confidence threshold.
//! - [`resolve`]: "第一个", "他", names → advisors, once for every later step.
//! - [`persona`]: who answers, and the casual persona's reply.
//! - [`plan`]: code's plan from the analysis; `model` asks the model only
//!   for what code left open; `merge` keeps what code found and lets the
//!   model add; a broken answer degrades to code's plan; `apology` only
//!   when neither can answer.
//! - [`validate`], [`steer`], [`execute`], [`narrate`]: checked, steered by
//!   the form's gaps, run, and spoken — a model's words only when
//!   every fact in them is in the data.
//! - [`save`]: the reply, stored in one transaction with the session.
//!
//! What the steps read and fill is the turn's state ([`state`]), by phase:
//! input, what was understood, what is proposed, the reply, the cost —
//! each field written from one file. A step that answers returns its
//! [`Answer`] (a failed planner its error) in a [`Decided`], and the
//! runner stores it ([`decided`]): no step writes the reply. What a step
//! reads of the agent is declared in its own file — a `Deps` struct, or a
//! plain argument — and filled in one place, [`TurnGraph`]'s `run`: a
//! step is a function of that file, not a method of `Agent`, so reading
//! the file is reading the step.

mod chip;
pub(super) mod classify;
mod coach;
mod execute;
pub(super) mod intent;
pub(super) mod narrate;
pub(super) mod persona;
mod plan;
mod resolve;
pub(super) mod save;
mod session;
mod state;
mod steer;
mod understand;
mod validate;

use app::protocol::ChatResponse;

use super::planner::PlanError;
use super::stream::VoiceSink;
use super::tools::Executor;
use super::{Agent, Prepared, TurnStats};
use narrate::Narrator;
pub(super) use state::{Answer, Asker, Clicked, Steered, Turn, Words};

/// The most steps one turn may take (the longest path is 16).
const MAX_STEPS: usize = 20;

/// The steps of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    Session,
    Chip,
    Coach,
    Intent,
    Understand,
    Classify,
    Resolve,
    Review,
    Persona,
    Casual,
    Plan,
    Model,
    Merge,
    Apology,
    Validate,
    Steer,
    Execute,
    Narrate,
    Save,
    End,
}

impl Step {
    /// The step's name in the metrics (`agent_turn_duration_seconds`).
    fn name(self) -> &'static str {
        use Step::*;
        match self {
            Session => "session",
            Chip => "chip",
            Coach => "coach",
            Intent => "intent",
            Understand => "understand",
            Classify => "classify",
            Resolve => "resolve",
            Review => "review",
            Persona => "persona",
            Casual => "casual",
            Plan => "plan",
            Model => "model",
            Merge => "merge",
            Apology => "apology",
            Validate => "validate",
            Steer => "steer",
            Execute => "execute",
            Narrate => "narrate",
            Save => "save",
            End => "end",
        }
    }
}

/// What a step decided, as far as the graph cares: the value [`next`]
/// matches on. A step returns it; nothing else about the turn chooses an
/// edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// Go on along the usual path.
    Next,
    /// The reply is decided (a greeting, a declined offer, the coach's
    /// answer, an advisor that does not exist …): store it.
    Answered,
    /// A chip stands for the message: one was clicked, or the message
    /// answers the chips on screen in words ("第二个").
    Chip,
    /// A review draft is open: the coach has the turn.
    Draft,
    /// A draft is open but the message is not about it: the agent answers
    /// and the draft stays as stored.
    Digressed,
    /// Code understood nothing and a model is configured: it classifies.
    Classify,
    /// The student asks to review the advisor the turn is about.
    Review,
    /// The casual persona answers.
    Casual,
    /// The model is asked for what code's plan left open.
    AskModel,
    /// A planner failed and nothing answers: the apology.
    Failed,
}

/// What a step that may answer the turn decided: an edge to go on along,
/// or the reply itself, which the runner stores ([`decided`]) — no step
/// writes the reply.
pub(super) enum Decided {
    Go(Outcome),
    Answered(Box<Answer>),
    /// A planner failed and nothing answers: the apology says so.
    Failed(PlanError),
}

impl Decided {
    pub(super) fn answered(answer: Answer) -> Decided {
        Decided::Answered(Box::new(answer))
    }
}

impl From<Outcome> for Decided {
    fn from(outcome: Outcome) -> Decided {
        Decided::Go(outcome)
    }
}

/// The one writer of the reply: an answer is stored and the turn goes to
/// `save`.
fn decided(t: &mut Turn<'_>, decided: Decided) -> Outcome {
    match decided {
        Decided::Go(outcome) => outcome,
        Decided::Answered(answer) => {
            t.reply.answer = Some(*answer);
            Outcome::Answered
        }
        Decided::Failed(failure) => {
            t.reply.failure = Some(failure);
            Outcome::Failed
        }
    }
}

/// The edges: which step follows `step`, given what it decided.
fn next(step: Step, outcome: Outcome) -> Step {
    use Outcome as O;
    use Step::*;
    match (step, outcome) {
        (Save | End, _) => End,
        (Apology, _) => Save,
        (_, O::Failed) => Apology,
        (Session, O::Chip) => Chip,
        (Session, O::Draft) => Coach,
        (Session, _) => Intent,
        // Not about the review: the agent answers, the draft is kept.
        (Coach, O::Digressed) => Intent,
        (Intent, O::Answered) => Save,
        (Intent, _) => Understand,
        (Understand, O::Chip) => Chip,
        (Understand, O::Answered) => Save,
        (Understand, O::Classify) => Classify,
        (Understand, _) => Resolve,
        (Classify, O::Answered) => Save,
        (Classify, _) => Resolve,
        (Resolve, O::Review) => Review,
        (Resolve, _) => Persona,
        (Persona, O::Casual) => Casual,
        (Persona, _) => Plan,
        (Plan, O::AskModel) => Model,
        (Plan, _) => Validate,
        (Model, _) => Merge,
        (Merge | Chip, _) => Validate,
        (Validate, _) => Steer,
        (Steer, _) => Execute,
        (Execute, O::Answered) => Save,
        (Execute, _) => Narrate,
        (Coach | Review | Casual | Narrate, _) => Save,
    }
}

impl Agent {
    /// Runs the graph over a prepared turn. Never fails: a failing
    /// dependency ends in a spoken apology with `error`, and the turn is
    /// stored.
    pub(super) async fn walk(
        &self,
        prepared: Prepared,
        sink: Option<&VoiceSink>,
    ) -> (ChatResponse, TurnStats) {
        let started = std::time::Instant::now();
        let mut graph = TurnGraph {
            agent: self,
            t: Turn::new(prepared, sink),
            saved: None,
        };
        // The step that decided the reply: the last before `save`.
        let walked = crate::graph::walk(&mut graph, |s| s == Step::Save).await;
        let (answered_by, taken, t) = (walked.answered_by, walked.steps, graph.t);
        let elapsed = started.elapsed();
        let micros = elapsed.as_micros() as u64;
        let planner = if self.model.is_some() {
            "model"
        } else {
            "embedded"
        };
        crate::observe::turn(planner, answered_by.name(), elapsed);
        let saved = graph.saved.expect("the save step always replies");
        let reply = saved.response;
        tracing::info!(
            session = %crate::agent::session_store::short(&reply.session_id),
            intent = %reply.intent.intent,
            tools = ?reply.tool_calls.iter().map(|c| c.tool.as_str()).collect::<Vec<_>>(),
            error = reply.error.as_ref().map(|e| e.code.as_str()),
            model_calls = t.cost.calls(),
            tokens = t.cost.tokens(),
            steps = taken,
            micros,
            "turn"
        );
        (
            reply,
            TurnStats {
                model_calls: t.cost.calls(),
                calls_by: t.calls_by(),
                tokens: t.cost.tokens(),
                micros,
                over_limit: saved.over_limit,
            },
        )
    }
}

/// The turn as a graph for the one runner (`crate::graph`): each step
/// runs on the turn's state with what it reads of the agent, named here
/// and declared in the step's own file (its `Deps`, or its arguments).
struct TurnGraph<'a, 'v> {
    agent: &'a Agent,
    t: Turn<'v>,
    /// What `save` stored: the reply the walk hands back.
    saved: Option<save::Saved>,
}

/// What `save` reads: its own step, and the end of a turn that cycled.
fn save_deps(a: &Agent) -> save::Deps<'_> {
    save::Deps {
        sessions: &a.sessions,
        templates: &a.templates,
    }
}

impl crate::graph::Graph for TurnGraph<'_, '_> {
    type Step = Step;
    type Outcome = Outcome;
    const START: Step = Step::Session;
    const END: Step = Step::End;
    const MAX_STEPS: usize = MAX_STEPS;
    const NAME: &'static str = "turn";

    async fn run(&mut self, step: Step) -> Outcome {
        let (a, t) = (self.agent, &mut self.t);
        let model = a.model.as_ref();
        let model_configured = model.is_some();
        // The steps whose result chooses no edge go on.
        let go_on = Outcome::Next;
        match step {
            Step::Session => session::run(t),
            Step::Chip => {
                t.proposed.clicked = Some(chip::run(t));
                go_on
            }
            Step::Coach => {
                let deps = coach::CoachDeps {
                    coach: &a.coach,
                    acts: &a.acts,
                    model: model.map(|m| m.client()),
                    site: &a.site,
                    lexicons: &a.lexicons,
                };
                let coached = deps.run(t).await;
                decided(t, coached)
            }
            Step::Intent => {
                let deps = intent::Deps {
                    acts: &a.acts,
                    templates: &a.templates,
                };
                let read = deps.run(t);
                decided(t, read)
            }
            Step::Understand => {
                let deps = understand::Deps {
                    site: &a.site,
                    lexicons: &a.lexicons,
                    acts: &a.acts,
                    coach: &a.coach,
                    personas: persona::lexicon(),
                    place_words: &a.place_words,
                    templates: &a.templates,
                    model_configured,
                };
                let understood = deps.run(t).await;
                decided(t, understood)
            }
            Step::Classify => {
                let deps = classify::Deps {
                    model: model.map(|m| m.client()),
                    lexicons: &a.lexicons,
                    templates: &a.templates,
                    readback: &a.readback,
                };
                let classified = deps.run(t).await;
                decided(t, classified)
            }
            Step::Resolve => {
                let deps = resolve::Deps {
                    site: &a.site,
                    surnames: &a.surnames,
                };
                deps.run(t).await
            }
            Step::Review => {
                let opened = coach::review(&a.coach, t);
                decided(t, Decided::answered(opened))
            }
            Step::Persona => persona::persona(t),
            Step::Casual => {
                let deps = persona::CasualDeps {
                    model,
                    sessions: &a.sessions,
                    tool_names: a.registry.names(),
                };
                let chatted = deps.run(t).await;
                decided(t, Decided::answered(chatted))
            }
            Step::Plan => {
                let deps = plan::PlanDeps {
                    embedded: &a.embedded,
                    model_configured,
                };
                let planned = deps.run(t).await;
                decided(t, planned)
            }
            Step::Model => {
                let deps = plan::ModelDeps {
                    model,
                    sessions: &a.sessions,
                };
                deps.run(t).await;
                go_on
            }
            Step::Merge => {
                let merged = plan::merge(t);
                decided(t, merged)
            }
            Step::Apology => match t.reply.failure.clone() {
                Some(failure) => {
                    let apology = plan::apology(&a.templates, t, failure);
                    decided(t, Decided::answered(apology))
                }
                None => go_on,
            },
            Step::Validate => {
                let deps = validate::Deps {
                    registry: &a.registry,
                    site: &a.site,
                };
                deps.run(t).await;
                go_on
            }
            Step::Steer => {
                steer::run(&a.site, t).await;
                go_on
            }
            Step::Execute => {
                let versions = t.input.versions.clone();
                let deps = execute::Deps {
                    executor: Executor {
                        site: &a.site,
                        recommender: &a.recommender,
                        versions: &versions,
                    },
                    templates: &a.templates,
                };
                let ran = deps.run(t).await;
                decided(t, ran)
            }
            Step::Narrate => {
                let deps = narrate::Deps {
                    narrator: Narrator {
                        templates: &a.templates,
                        names: &a.names,
                        catalog: a.site.catalog(),
                        place_words: &a.place_words,
                    },
                    tool_names: a.registry.names(),
                    surnames: &a.surnames,
                };
                let narrated = deps.run(t);
                decided(t, Decided::answered(narrated))
            }
            Step::Save => {
                self.saved = Some(save_deps(a).run(t).await);
                go_on
            }
            Step::End => go_on,
        }
    }

    fn next(&self, step: Step, outcome: Outcome) -> Step {
        next(step, outcome)
    }

    /// A cycle is a bug in the edges; the turn still answers, and is stored.
    async fn cycled(&mut self, _step: Step) {
        let failure = PlanError {
            code: "internal_error".into(),
            message: "回合未能结束".into(),
        };
        let a = self.agent;
        let apology = plan::apology(&a.templates, &mut self.t, failure);
        decided(&mut self.t, Decided::answered(apology));
        self.saved = Some(save_deps(a).run(&mut self.t).await);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUTCOMES: [Outcome; 10] = [
        Outcome::Next,
        Outcome::Answered,
        Outcome::Chip,
        Outcome::Draft,
        Outcome::Digressed,
        Outcome::Classify,
        Outcome::Review,
        Outcome::Casual,
        Outcome::AskModel,
        Outcome::Failed,
    ];

    /// Every step leads to `End` within the cap, whatever each step decides.
    #[test]
    fn every_path_ends() {
        let steps = [
            Step::Session,
            Step::Chip,
            Step::Coach,
            Step::Intent,
            Step::Understand,
            Step::Classify,
            Step::Resolve,
            Step::Review,
            Step::Persona,
            Step::Casual,
            Step::Plan,
            Step::Model,
            Step::Merge,
            Step::Apology,
            Step::Validate,
            Step::Steer,
            Step::Execute,
            Step::Narrate,
            Step::Save,
        ];
        // The longest walk: each step taking the outcome that leads furthest
        // (a depth-first search that fails on a step met again on its own
        // path: a cycle).
        fn longest(step: Step, path: &mut Vec<Step>) -> usize {
            if step == Step::End {
                return 0;
            }
            assert!(!path.contains(&step), "a cycle: {path:?} then {step:?}");
            path.push(step);
            let mut outs: Vec<Step> = OUTCOMES.iter().map(|&o| next(step, o)).collect();
            outs.sort_by_key(|s| *s as u8);
            outs.dedup();
            let n = outs
                .into_iter()
                .map(|s| 1 + longest(s, path))
                .max()
                .unwrap_or(0);
            path.pop();
            n
        }
        for start in steps {
            assert!(longest(start, &mut Vec::new()) <= MAX_STEPS, "{start:?}");
        }
        // Session … Execute, then a failure's apology and Save.
        assert_eq!(longest(Step::Session, &mut Vec::new()), 16);
        // A failure anywhere before the reply is stored ends in the apology.
        for step in steps {
            if !matches!(step, Step::Apology | Step::Save) {
                assert_eq!(next(step, Outcome::Failed), Step::Apology, "{step:?}");
            }
        }
    }
}
