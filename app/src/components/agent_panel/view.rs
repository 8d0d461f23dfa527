//! The panel's pieces: header, message list, chips and the input bar (its
//! microphone buttons are `mic`'s, the voice call's bar `call`'s).
//!
//! Everything the server renders is also what the first client render shows
//! (no stored messages, not muted, no microphone); what depends on the browser
//! arrives through effects after hydration.

use leptos::html;
use leptos::prelude::*;

use super::apply::ChipSet;
use super::conversation::{Conversation, Message};
use super::mic::{Ear, MicButton, RecordButton};
use crate::hydrated::Hydrated;
use crate::protocol::{mode_name, persona_name, UserForm, ANALYSIS, CASUAL};
use crate::sync_hydrate::IntoAnySync;

/// The form as short pills for the header ("北京大学 · 计算机科学与技术 · 机器学习"):
/// the filled fields, required ones first.
pub fn form_pills(form: &UserForm) -> Vec<String> {
    [
        &form.school,
        &form.major,
        &form.research_direction,
        &form.preferences.personality,
        &form.preferences.research_style,
        &form.preferences.funding,
        &form.degree_type,
    ]
    .into_iter()
    .flatten()
    .map(|v| v.trim().to_string())
    .filter(|v| !v.is_empty())
    .chain(form.enrollment_year.iter().map(|y| format!("{y}年入学")))
    .collect()
}

/// Title, what the agent knows so far, mute and "新对话".
#[component]
pub fn PanelHeader(conversation: Conversation, hydrated: Hydrated) -> impl IntoView {
    let muted = conversation.muted;
    let persona = conversation.persona;
    let pills = move || {
        conversation
            .form
            .with(|f| f.as_ref().map(form_pills).unwrap_or_default())
    };
    view! {
        <header class="agent-header">
            <div class="agent-heading">
                <h2 class="agent-title" id="agent-title" data-testid="agent-persona">
                    {move || persona_name(&persona.get())}
                </h2>
                <ul class="agent-form" data-testid="agent-form" aria-label="已了解的信息">
                    <For
                        each=pills
                        key=|pill| pill.clone()
                        children=|pill| view! { <li class="agent-pill">{pill}</li> }
                    />
                </ul>
            </div>
            <div class="agent-actions">
                <div class="agent-personas" role="group" aria-label="助手模式">
                    {[(ANALYSIS, "分析"), (CASUAL, "闲聊")]
                        .into_iter()
                        .map(|(agent, label)| {
                            let on = move || persona.get() == agent;
                            view! {
                                <button
                                    type="button"
                                    class="agent-persona-button"
                                    class:active=on
                                    data-testid=format!("agent-persona-{agent}")
                                    aria-pressed=move || if on() { "true" } else { "false" }
                                    title=format!("切换到{}模式", mode_name(agent))
                                    disabled=move || !hydrated.get() || conversation.busy.get()
                                    on:click=move |_| {
                                        conversation.switch_persona(agent);
                                    }
                                >
                                    {label}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
                <button
                    type="button"
                    class="agent-icon-button"
                    data-testid="agent-mute"
                    aria-pressed=move || if muted.get() { "true" } else { "false" }
                    aria-label=move || if muted.get() { "取消静音，朗读回复" } else { "静音，不朗读回复" }
                    title=move || if muted.get() { "已静音" } else { "朗读回复" }
                    disabled=move || !hydrated.get()
                    on:click=move |_| conversation.set_muted(!muted.get_untracked())
                >
                    {move || if muted.get() { crate::components::icons::speaker_off() } else { crate::components::icons::speaker() }}
                </button>
                <button
                    type="button"
                    class="agent-text-button"
                    data-testid="agent-new"
                    aria-label="开始新对话"
                    disabled=move || !hydrated.get()
                    on:click=move |_| conversation.reset()
                >
                    "新对话"
                </button>
            </div>
        </header>
    }
}

/// The conversation, newest at the bottom, kept scrolled to the end.
#[component]
pub fn MessageList(conversation: Conversation) -> impl IntoView {
    let list = NodeRef::<html::Div>::new();
    let messages = conversation.messages;
    let typing = conversation.typing;
    // Browser side effect: follow the conversation as it grows.
    Effect::new(move |_| {
        messages.track();
        typing.track();
        if let Some(el) = list.get() {
            request_animation_frame(move || el.set_scroll_top(el.scroll_height()));
        }
    });
    view! {
        <div
            class="agent-messages"
            data-testid="agent-messages"
            node_ref=list
            role="log"
            aria-live="polite"
            aria-label="对话记录"
        >
            <Show when=move || messages.with(Vec::is_empty)>
                <p class="agent-welcome">"你好！我是导师推荐助手。告诉我你想考的学校和专业，我来帮你找导师。"</p>
            </Show>
            <For
                each=move || messages.get()
                key=|m| m.id
                children=move |message: Message| {
                    let role = message.role.as_str();
                    let id = message.id;
                    // A streamed reply grows in place under the same id, so the
                    // row reads its text from the list, not once from the
                    // first version of the message.
                    let text = Memo::new(move |_| {
                        messages.with(|list| {
                            list.iter()
                                .find(|m| m.id == id)
                                .map(|m| m.text.clone())
                                .unwrap_or_default()
                        })
                    });
                    view! {
                        <div class=format!("agent-message agent-message-{role}") data-testid="agent-message" data-role=role>
                            {text}
                        </div>
                    }
                }
            />
            // The page script's lines before the WASM (`early`): rendered
            // empty, and never filled by the app.
            <div id=super::early::LOG_ID data-testid="agent-early"></div>
            <Show when=move || typing.get()>
                <div class="agent-typing" data-testid="agent-typing" role="status" aria-label="助手正在回复">
                    <span aria-hidden="true">"…"</span>
                </div>
            </Show>
        </div>
    }
}

/// The chips of the last `present_options`, above the input.
#[component]
pub fn Chips(conversation: Conversation) -> impl IntoView {
    move || {
        conversation
            .chips
            .get()
            .map(|set| view! { <ChipGroup set conversation/> })
    }
}

/// One set of chips; its selection lives and dies with it.
#[component]
fn ChipGroup(set: ChipSet, conversation: Conversation) -> impl IntoView {
    let selected = RwSignal::new(Vec::<String>::new());
    let busy = conversation.busy;
    let multi = set.multi_select;
    let field = StoredValue::new(set.target_field.clone());
    let send = move |values: Vec<String>| {
        conversation.send_option(field.get_value(), values);
    };
    let chips = set
        .options
        .iter()
        .cloned()
        .map(|option| {
            let value = StoredValue::new(option.clone());
            let pressed = move || value.with_value(|v| selected.with(|s| s.contains(v)));
            let on_click = move |_| {
                let v = value.get_value();
                if multi {
                    selected.update(|s| match s.iter().position(|x| *x == v) {
                        Some(i) => {
                            s.remove(i);
                        }
                        None => s.push(v),
                    });
                } else {
                    send(vec![v]);
                }
            };
            view! {
                <button
                    type="button"
                    class="agent-chip"
                    class:selected=pressed
                    data-testid="agent-chip"
                    aria-pressed=move || multi.then(|| if pressed() { "true" } else { "false" })
                    disabled=move || busy.get()
                    on:click=on_click
                >
                    {option}
                </button>
            }
        })
        .collect_view();
    let question = (!set.question.is_empty()).then(|| set.question.clone());
    let label = set.question.clone();
    view! {
        <div class="agent-chips" data-testid="agent-chips" role="group" aria-label=label>
            {question.map(|q| view! { <p class="agent-chips-question">{q}</p> })}
            <div class="agent-chip-row">
                {chips}
                {multi.then(|| view! {
                    <button
                        type="button"
                        class="agent-chip agent-chip-confirm"
                        data-testid="agent-chip-confirm"
                        aria-label="确定所选"
                        disabled=move || busy.get() || selected.with(Vec::is_empty)
                        on:click=move |_| send(selected.get_untracked())
                    >
                        "确定"
                    </button>
                })}
                {set.allow_skip.then(|| view! {
                    <button
                        type="button"
                        class="agent-chip agent-chip-skip"
                        data-testid="agent-chip-skip"
                        aria-label="跳过这个问题"
                        disabled=move || busy.get()
                        on:click=move |_| send(Vec::new())
                    >
                        "跳过"
                    </button>
                })}
            </div>
        </div>
    }
}

/// The line under the messages when a request failed outright (or the
/// microphone could not listen).
#[component]
pub fn ErrorLine(conversation: Conversation) -> impl IntoView {
    move || {
        conversation.error.get().map(
            |e| view! { <p class="agent-error" data-testid="agent-error" role="alert">{e}</p> },
        )
    }
}

/// Text input, send, and the microphone where the browser can listen.
#[component]
pub fn Composer(
    conversation: Conversation,
    hydrated: Hydrated,
    ear: RwSignal<Ear>,
    /// A voice call is on: it has the microphone.
    calling: Signal<bool>,
) -> impl IntoView {
    // What was typed before hydration (the page's script turns the input on
    // at the first paint, `early`) stays in the box.
    let draft = RwSignal::new(super::early::typed());
    let input = NodeRef::<html::Input>::new();
    let busy = conversation.busy;
    let refocus = StoredValue::new(false);
    // Give the focus back after a typed turn (the input was disabled meanwhile).
    Effect::new(move |was_busy: Option<bool>| {
        let now = busy.get();
        if was_busy == Some(true) && !now && refocus.get_value() {
            refocus.set_value(false);
            request_animation_frame(move || {
                if let Some(el) = input.get_untracked() {
                    let _ = el.focus();
                }
            });
        }
        now
    });
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let text = draft.get_untracked();
        if conversation.send_text(&text) {
            draft.set(String::new());
            refocus.set_value(true);
        }
    };
    // Off until hydrated unless the page's script (`early`) turned it on.
    let disabled = move || !hydrated.get() || busy.get();
    view! {
        <form class="agent-composer" on:submit=on_submit>
            <input
                type="text"
                class="agent-input"
                data-testid="agent-input"
                node_ref=input
                placeholder="说说你想考的学校和专业…"
                aria-label="输入你的问题"
                autocomplete="off"
                enterkeyhint="send"
                prop:value=move || draft.get()
                on:input=move |ev| draft.set(event_target_value(&ev))
                disabled=disabled
            />
            // Drawn in the browser only, where it can listen.
            {move || match if calling.get() { Ear::None } else { ear.get() } {
                Ear::Server => view! { <RecordButton conversation draft/> }.into_any_sync(),
                Ear::Browser => view! { <MicButton conversation draft/> }.into_any_sync(),
                Ear::None => ().into_any_sync(),
            }}
            <button type="submit" class="agent-send" data-testid="agent-send" aria-label="发送" disabled=disabled>
                "发送"
            </button>
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Preferences;

    #[test]
    fn pills_show_the_filled_fields_in_form_order() {
        let form = UserForm {
            school: Some("北京大学".into()),
            major: Some("计算机科学与技术".into()),
            research_direction: Some("机器学习".into()),
            preferences: Preferences {
                personality: Some("温和".into()),
                research_style: None,
                funding: Some(" ".into()),
            },
            degree_type: Some("学硕".into()),
            enrollment_year: Some("2027".into()),
        };
        assert_eq!(
            form_pills(&form),
            vec![
                "北京大学",
                "计算机科学与技术",
                "机器学习",
                "温和",
                "学硕",
                "2027年入学"
            ]
        );
        assert!(form_pills(&UserForm::default()).is_empty());
    }
}
