//! The pages that say what the site is and how it treats people: `/rules`
//! (发帖规则), `/privacy` (隐私说明) and `/about` (关于). Linked from every
//! page's footer; plain server-rendered HTML that needs no JavaScript.
//!
//! Why they print constants instead of prose numbers: every rule, limit and
//! retention period here is read from where the code enforces it
//! (`crate::policy`, `crate::vocabulary`), so the pages cannot promise
//! something the server does not do. The posting rules are the list the
//! server's checks report their findings as (`ContentRule::ALL`).
//!
//! None of them shows an advisor the agent could pick; the protocol has no
//! page kind for them, so the panel sees them as it sees the home page (as
//! on the admin page).

use leptos::prelude::*;

use crate::meta::PageMeta;
use crate::page_context::PageContextStore;
use crate::policy::{
    ContentRule, DRAFT_MINUTES, DUPLICATE_DAYS, DUPLICATE_SIMILARITY, EDIT_HOURS, PRIOR_REVIEWS,
    REPORT_REASON_CHARS, REVIEW_BURST, REVIEW_DAILY, SESSION_DAYS,
};
use crate::protocol::PageKind;
use crate::vocabulary::{MAX_TAGS, MAX_TEXT, MIN_TEXT, RELATIONS};

/// The page context of a page that shows no advisor.
fn no_advisors() {
    PageContextStore::expect().show_other(PageKind::Home);
}

/// `/rules` — the posting rules, as the server checks them.
#[component]
pub fn RulesPage() -> impl IntoView {
    no_advisors();
    let similarity = (DUPLICATE_SIMILARITY * 100.0).round() as u32;
    view! {
        <PageMeta
            title="发帖规则"
            description="导师评价网的发帖规则：评价发布前自动检查的每一条规则（不写联系方式和身份证号、不写私生活、严重指控不能只凭听说、不辱骂、不写其他学生姓名），以及字数、频率和修改的限制。"
        />
        <article class="page trust" data-page="rules">
            <h1>"发帖规则"</h1>
            <p class="lead">
                "每条评价发布前都会自动检查下面的规则。违反任何一条，评价不会发布，页面会指出是哪条规则、从第几个字起，修改后可以再提交。"
                "这份清单直接取自检查评价的程序，与实际执行的规则一致。"
            </p>
            <section>
                <h2>"内容规则"</h2>
                <ol class="rule-list" data-testid="content-rules">
                    {ContentRule::ALL
                        .into_iter()
                        .map(|r| view! {
                            <li data-rule=r.code()>
                                <strong>{r.name()}</strong>
                                <p>{r.explanation()}</p>
                            </li>
                        })
                        .collect_view()}
                </ol>
                <p class="muted">"检查前，全角字符、繁体字和汉字数字都会先换成常见写法，所以换一种写法绕不过规则。"</p>
            </section>
            <section>
                <h2>"填写要求"</h2>
                <ul>
                    <li>"学术水平、科研经费、师生关系、学生前途和综合评分，每项都要打 1 到 5 分。"</li>
                    <li>{format!("评价正文 {MIN_TEXT} 到 {MAX_TEXT} 个字。")}</li>
                    <li>{format!("标签最多选 {MAX_TAGS} 个，只能从列表中选。")}</li>
                    <li>{format!("你和导师的关系：{}，三选一。", RELATIONS.join("、"))}</li>
                    <li>"“是否推荐报考这位导师”可以不答。"</li>
                </ul>
            </section>
            <section>
                <h2>"频率与重复"</h2>
                <ul>
                    <li data-testid="rule-burst">
                        {format!(
                            "同一网络地址 {} 内最多发布 {} 条评价，{} 内最多 {} 条。",
                            REVIEW_BURST.window_zh(),
                            REVIEW_BURST.count,
                            REVIEW_DAILY.window_zh(),
                            REVIEW_DAILY.count,
                        )}
                    </li>
                    <li>
                        {format!(
                            "{DUPLICATE_DAYS} 天内对同一位导师再次发布内容相同或几乎相同（相似度 {similarity}% 以上）的评价，会被拒绝；可以修改原来那条。"
                        )}
                    </li>
                    <li>"同样的内容发在多位导师名下，这些评价会被标记，交给管理员审核（审核前照常显示）。"</li>
                </ul>
            </section>
            <section>
                <h2>"发布之后"</h2>
                <ul>
                    <li>{format!("发布后 {EDIT_HOURS} 小时内，作者可以凭保存在自己浏览器里的修改码修改或删除评价。")}</li>
                    <li>{format!("任何人都可以举报评价（理由最多 {REPORT_REASON_CHARS} 字）。举报本身不会隐藏评价，由管理员审核后决定隐藏或恢复，每次操作都有记录。")}</li>
                    <li>"被评价的导师本人或其他人认为内容有误，可以"<a href="/correction">"申请更正或删除"</a>"。"</li>
                </ul>
            </section>
        </article>
    }
}

/// `/privacy` — what is stored, for how long, and how it goes away.
#[component]
pub fn PrivacyPage() -> impl IntoView {
    no_advisors();
    view! {
        <PageMeta
            title="隐私说明"
            description="导师评价网保存哪些数据、保存多久、如何删除：评价匿名发布，不需要注册；不保存网络地址，只保存由它算出的编码，用于频率限制、“有用”计票和去重；助手对话闲置后自动删除。"
        />
        <article class="page trust" data-page="privacy">
            <h1>"隐私说明"</h1>
            <p class="lead">"本站不需要注册，没有账号，不要求填写姓名、手机号或邮箱（申诉表单的联系方式除外）。评价匿名发布：页面和接口上显示的评价不带任何作者信息。下面逐项说明本站保存什么、为什么、保存多久。"</p>
            <section data-testid="client-code">
                <h2>"网络地址"</h2>
                <p>"本站不保存你的网络地址（IP 地址）。服务器收到请求时，先用一个随机生成、只存放在本站数据库里的密钥，把这次连接的地址换算成一个编码（HMAC-SHA256），然后只保存这个编码；地址本身不写入数据库，也不写入本站的日志。本站经可信的反向代理访问时，换算的是代理转发的访问者地址。"</p>
                <p>"同一个地址总是得到同一个编码，所以编码只用来做三件事：限制发布评价、申诉和对话的频率；同一访问者对一条评价只能点一次“有用”、只能举报一次；发现同一来源的重复评价。没有密钥，无法从编码推出地址，也无法拿猜测的地址去比对。"</p>
                <p>"编码跟它所在的记录一起删除，见下面各项。"</p>
            </section>
            <section>
                <h2>"评价"</h2>
                <p>"保存你填写的评分、标签、正文、你和导师的关系、是否推荐，以及发布和修改的时间，这些会公开显示。"</p>
                <p>"另外保存、但不公开（管理员页面也不显示）的有两项："</p>
                <ul>
                    <li>"发布时网络地址的编码（见上面“网络地址”），不是地址本身。用途只有两个：限制发布频率，发现同一来源的重复评价。它随评价保存，评价删除时一并删除。"</li>
                    <li>{format!("修改码的 SHA-256 摘要。修改码本身只交给你的浏览器：表单发布的评价保存在名为 review-token-编号 的 Cookie 里，{EDIT_HOURS} 小时后过期；助手代你发布的评价保存在浏览器的 localStorage 里。")}</li>
                </ul>
            </section>
            <section>
                <h2>"举报和“有用”"</h2>
                <p>{format!("举报保存被举报的评价、举报人网络地址的编码、理由（最多 {REPORT_REASON_CHARS} 字）和时间，同一编码对同一条评价只记一次。管理员看得到举报次数和理由，看不到举报人的编码。")}</p>
                <p>"点“有用”保存评价、你网络地址的编码和时间，同一编码对一条评价只记一次；再点一次即撤回（记录被删除）。"</p>
                <p>"评价被删除时，它的举报和“有用”记录一并删除。"</p>
            </section>
            <section>
                <h2>"语音助手的对话"</h2>
                <p>"保存对话内容（你发的消息和助手的回答）、助手整理的选导师条件、你当时所在页面上的导师，以及助手为这次会话记下的要点。会话记录不包含网络地址，也不包含它的编码。"</p>
                <p data-testid="session-retention">{format!("会话 {SESSION_DAYS} 天没有新消息即被删除，连同其中的全部消息；服务器每小时清理一次。")}</p>
                <p>"会话编号保存在浏览器的 sessionStorage 里，关闭标签页后浏览器就不再记得它；静音开关保存在 localStorage 里。"</p>
                <p>"为限制对话频率，服务器按网络地址的编码计数每分钟的消息数，过期的计数会定期清除。"</p>
                <p>"如果网站运营者配置了外部语言模型，你发给助手的消息和相关的页面信息会发送给该模型服务来生成回答；没有配置时，回答由本站服务器自己生成。"</p>
            </section>
            <section>
                <h2>"语音"</h2>
                <p>"朗读回答使用浏览器自带的语音合成（SpeechSynthesis），不经过本站服务器。"</p>
                <p>"语音输入：如果本站开启了语音识别，你按下麦克风后的录音发送到本站服务器，再交给运营者配置的识别服务转成文字（通常是本站服务器上的本地识别模型）；录音只在这一次请求的内存里，转成文字后即丢弃，不写入数据库或文件。识别出的文字会像你打出的字一样作为一条消息发送。"</p>
                <p>"如果本站没有开启语音识别，语音输入使用浏览器自带的语音识别（SpeechRecognition），本站只收到识别出的文字；有的浏览器会把录音交给浏览器厂商的服务识别，这由你的浏览器决定。"</p>
            </section>
            <section>
                <h2>"申诉与更正"</h2>
                <p>"申诉表单保存你填写的内容和联系方式，以及提交时网络地址的编码（用于限制提交频率）和时间。只有管理员能看到，用于处理你的请求；处理完毕后记录仍会保留。"</p>
            </section>
            <section>
                <h2>"没有通过检查的表单"</h2>
                <p>{format!("评价或申诉没有通过检查时，你填写的内容会临时保存 {DRAFT_MINUTES} 分钟，以便在表单里重新显示给你修改，之后删除。")}</p>
            </section>
            <section>
                <h2>"删除"</h2>
                <ul>
                    <li>{format!("评价的作者可以在发布后 {EDIT_HOURS} 小时内自己删除评价。")}</li>
                    <li>"超过这个时间，或者你是被评价的导师、认为某条内容涉及你，请通过"<a href="/correction">"申诉/更正表单"</a>"联系管理员处理。"</li>
                    <li>{format!("助手的对话无需申请，闲置 {SESSION_DAYS} 天后自动删除。")}</li>
                </ul>
            </section>
        </article>
    }
}

/// `/about` — what the site is, how scores are computed, the agent.
#[component]
pub fn AboutPage() -> impl IntoView {
    no_advisors();
    view! {
        <PageMeta
            title="关于"
            description="关于导师评价网：帮考研、保研的同学了解导师。评分怎样计算（贝叶斯平均），语音助手能做什么，演示数据是虚构的，如何申请更正。"
        />
        <article class="page trust" data-page="about">
            <h1>"关于导师评价网"</h1>
            <p class="lead">"导师评价网帮助准备考研、保研的同学了解导师：按学校和专业查看导师排行，阅读在读生和毕业生的评价，把几位导师放在一起比较，也可以和语音助手边聊边找。"</p>
            <p class="notice" data-testid="demo-notice">"演示数据（随站点生成的导师和评价）是虚构的，不对应真实的人和事；其中的学校和专业名称只用于演示。"</p>
            <section>
                <h2>"评分怎么算"</h2>
                <p>"每条评价为学术水平、科研经费、师生关系、学生前途和综合评分各打 1 到 5 分。只有公开显示的评价参与计算，被管理员隐藏的评价不计入。"</p>
                <p>"导师页上显示的是学生打分的平均值（四个维度和综合评分），以及综合评分的分布。"</p>
                <p data-testid="prior-reviews">
                    {format!(
                        "排行用贝叶斯平均排序：每位导师的分数都先加上 {PRIOR_REVIEWS} 条“全站平均分”的虚拟评价再求平均，即（{PRIOR_REVIEWS} × 全站平均分 + 该导师所有评分之和）÷（{PRIOR_REVIEWS} + 评价条数）。"
                    )}
                </p>
                <p>"评价越少，分数越接近全站平均；评价越多，越接近导师自己的平均分。这样，只有两条五星好评的导师不会排在有八十条平均 4.6 分评价的导师前面。分数相同时，评价多的在前。按某一维度排序时，用的是那个维度的贝叶斯平均；对比页的综合评分也是这样算的。"</p>
                <p>"“推荐报考”的比例，是回答了“是否推荐报考”的评价中选择“推荐”的比例。"</p>
            </section>
            <section>
                <h2>"语音助手"</h2>
                <p>"每页右下角的助手能听懂“我想考北京大学计算机系，想做机器学习，导师温和一点”这样的话：帮你整理条件、打开排行、介绍导师、比较几位导师。它看得到你正在看的页面，所以可以问“第一个导师怎么样”。它也能陪你写评价，发布前按同样的发帖规则检查。"</p>
                <p>"助手的回答由浏览器自带的语音合成（SpeechSynthesis）朗读，可以静音；说话输入使用浏览器的语音识别。浏览器不支持时，照常可以打字。"</p>
            </section>
            <section>
                <h2>"联系我们"</h2>
                <p>"本站不公开邮箱。对页面内容有异议，需要更正或删除，请使用"<a href="/correction">"申诉/更正表单"</a>"，管理员会逐条处理，并通过你留下的联系方式回复。"</p>
                <p>"另见"<a href="/rules">"发帖规则"</a>"和"<a href="/privacy">"隐私说明"</a>"。"</p>
            </section>
        </article>
    }
}
