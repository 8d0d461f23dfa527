//! The language-model provider: OpenAI-compatible Chat Completions over HTTP,
//! which DeepSeek, Qwen (DashScope), OpenAI, vLLM and Ollama all speak. This
//! module knows nothing of advisors or forms; it sends messages and tools and
//! returns what the model said, streamed or not, with every failure mapped to
//! one [`LlmError`]; the agent then answers with code's own plan.
//!
//! - [`config`]: the `LLM_*` environment variables.
//! - [`wire`]: the JSON shapes of requests, replies and stream chunks.
//! - [`sse`]: server-sent events decoding and tool calls assembled from deltas.
//! - [`client`]: one completion with a deadline, retries, backoff and jitter.
//! - [`error`]: what can go wrong, as error codes and Chinese messages.
//! - [`breaker`]: a provider that keeps failing is skipped for a while.
//! - [`budget`]: the turn's latency budget, which every model call keeps.
//! - [`scripted`]: a scripted OpenAI-compatible server for tests and demos.

pub mod breaker;
pub mod budget;
pub mod client;
pub mod config;
pub mod error;
pub mod json;
pub mod scripted;
pub mod sse;
pub mod wire;

pub use client::{Completion, CompletionRequest, LlmClient, RawToolCall};
pub use config::{LlmConfig, ToolMode};
pub use error::LlmError;
