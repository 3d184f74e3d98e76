// The operator's console (docs/operations.md): sign in with a password and a TOTP code,
// then live figures, players, rooms (public view only), announcements, reports, trail.
// The staff token is kept in sessionStorage (this tab only), never in a URL.

const TEXTS = {
  zh: {
    title: "牌局 管理后台", sign_in: "员工登录", name: "用户名", password: "密码",
    code: "动态验证码或恢复码", sign_in_go: "登录", sign_out: "退出",
    tab_live: "实时", tab_players: "玩家", tab_rooms: "房间", tab_news: "公告",
    tab_reports: "报表", tab_trail: "操作日志", online: "在线玩家", rooms_open: "房间",
    hands_minute: "每分钟局数", stuck: "卡住", game: "游戏", waiting: "等待",
    playing: "进行中", search: "搜索", search_hint: "ID / 登录名 / 昵称", days: "天",
    hours: "小时", reason: "原因（必填）", ban: "封禁", unban: "解封", mute: "禁言",
    unmute: "解除禁言", reset: "重置密码", export: "导出数据", sessions: "登录设备",
    trail_of: "操作记录", room_id: "房间号", show: "查看",
    public_only: "只显示观战视角：进行中的暗牌不显示，牌局结束后可看完整回放。",
    close_room: "关闭房间", text_zh: "中文", text_en: "English", send_notice: "发送通知",
    open_rooms: "开着的房间", kind: "类型", banner: "大厅横幅", marquee: "跑马灯",
    starts: "开始", ends: "结束", publish: "发布", notice_all: "立即通知所有牌桌",
    daily: "每日报表", collusion: "串通嫌疑", assistance: "外挂嫌疑",
    login: "登录名", guest: "游客", balance: "积分", hands: "局数", since: "注册",
    banned_until: "封禁至", muted_until: "禁言至", none: "无", withdraw: "撤下",
    done_ban: "已封禁 {who}，至 {until}", done_unban: "已解封", done_mute: "已禁言至 {until}",
    done_unmute: "已解除禁言", done_reset: "新密码：{p}（请转交玩家）",
    done_close: "房间已关闭", done_notice: "通知已发送", done_news: "公告已发布",
    intact: "日志链完整：{n} 条", broken: "日志链在第 {id} 条断开！",
    active: "活跃", new_players: "新玩家", retention: "次日/7日/30日留存", rooms: "房间", bot_share: "机器人座位",
    pair: "玩家对", shared: "同桌局数", p: "p 值", look: "查看牌局",
    player: "玩家", decisions: "决策数", match: "与困难机器人一致", others: "他人",
    seconds: "中位用时(秒)", nothing: "没有结果", at: "时间", actor: "操作者",
    action: "操作", target: "对象", address: "地址", working: "计算中…",
    bad_login: "用户名、密码或验证码不对", device: "设备", open: "在线", ended: "已结束",
    errors_minute: "每分钟错误", node: "节点", no_answer: "未响应", nodes: "各节点",
    single: "单机",
  },
  en: {
    title: "paiju console", sign_in: "Staff sign-in", name: "Name", password: "Password",
    code: "Authenticator code or recovery code", sign_in_go: "Sign in", sign_out: "Sign out",
    tab_live: "Live", tab_players: "Players", tab_rooms: "Rooms", tab_news: "Announcements",
    tab_reports: "Reports", tab_trail: "Audit trail", online: "Players online",
    rooms_open: "Rooms", hands_minute: "Hands a minute", stuck: "Stuck", game: "Game",
    waiting: "Waiting", playing: "Playing", search: "Search", search_hint: "ID / login / name",
    days: "days", hours: "hours", reason: "Reason (required)", ban: "Ban", unban: "Lift ban",
    mute: "Mute", unmute: "Unmute", reset: "Reset password", export: "Export data",
    sessions: "Sessions", trail_of: "Actions on this player", room_id: "Room id",
    show: "Show",
    public_only: "A spectator's view only: no hidden card of a hand in play; the whole hand in its replay once over.",
    close_room: "Close room", text_zh: "中文", text_en: "English", send_notice: "Send notice",
    open_rooms: "Open rooms", kind: "Kind", banner: "Lobby banner",
    marquee: "Scrolling notice", starts: "Starts", ends: "Ends", publish: "Publish",
    notice_all: "Notify every table now", daily: "Daily", collusion: "Collusion",
    assistance: "Bot assistance", login: "Login", guest: "guest", balance: "Balance",
    hands: "Hands", since: "Since", banned_until: "Banned until", muted_until: "Muted until",
    none: "none", withdraw: "Withdraw", done_ban: "Banned {who} until {until}",
    done_unban: "Ban lifted", done_mute: "Muted until {until}", done_unmute: "Mute lifted",
    done_reset: "New password: {p} (hand it to the player)", done_close: "Room closed",
    done_notice: "Notice sent", done_news: "Announcement published",
    intact: "Trail intact: {n} entries", broken: "Trail broken at entry {id}!",
    active: "Active", new_players: "New", retention: "Back after 1/7/30 days", rooms: "Rooms", bot_share: "Bot seats",
    pair: "Pair", shared: "Hands together", p: "p-value", look: "Hands",
    player: "Player", decisions: "Decisions", match: "Match with hard bot", others: "Others",
    seconds: "Median s", nothing: "Nothing found", at: "When", actor: "By",
    action: "Action", target: "On", address: "From", working: "Working…",
    bad_login: "Wrong name, password or code", device: "Device", open: "open", ended: "ended",
    errors_minute: "Errors a minute", node: "Node", no_answer: "no answer", nodes: "Nodes",
    single: "single server",
  },
};

Object.assign(TEXTS.zh, {
  tab_catalogue: "游戏目录", tab_chat: "聊天举报",
  catalogue_hint: "改动不用重启，所有节点几秒内生效；已开的房间照常进行。",
  game_defaults_are: "游戏本身的默认选项：", defaults: "新房间的默认选项 (JSON，如 {\"min_bet\": 2})",
  choices: "房间表单可选的值 (JSON，如 {\"banker_rotation\": [\"stay\"]})", save: "保存", close: "收起",
  house_title: "添加自定义玩法 (TOML)", house_file: "文件", house_text: "内容", house_add: "检查并添加",
  house_hint: "一个或多个 [[variant]] 条目，代码不能与已有的重复；添加后不能修改，要改就用新代码并关闭旧的。",
  on: "开放", off: "已关闭", turn_on: "开放", turn_off: "关闭", edit: "设置", house: "自定义",
  not_playable: "暂不可玩", done_game_on: "{code} 已开放新房间", done_game_off: "{code} 已停止开新房间",
  done_saved: "{code} 的选项已保存", done_house: "已添加：{codes}", bad_json: "不是有效的 JSON：{m}",
  bad_file: "文件有误：{m}", chat_all: "包括已处理的", csv: "导出 CSV", reported: "被举报",
  reporter: "举报人", lines: "最近的发言", handle: "处理", outcome: "处理结果（必填）",
  open_report: "待处理", handled: "已处理", done_handled: "已处理举报 #{id}", seat: "座位",
  erase: "注销玩家", erase_confirm: "确定永久注销 {who}？其牌局记录会以匿名座位保留。",
  done_erase: "已注销，现名 {name}；保留 {n} 局记录", clubs: "亲友圈活跃",
  active_clubs: "活跃亲友圈", club_rooms: "亲友圈房间", club_hands: "亲友圈局数",
  band: "等级段", band_rate: "同段一致率", threshold: "门槛", reports_against: "被举报记录",
  band_beginner: "新手", band_casual: "普通", band_strong: "高手", band_expert: "顶尖",
  band_unrated: "未定级", band_all: "全体", above: "超过门槛", chat_none: "没有待处理的举报",
  room: "房间",
  tab_events: "复式赛", ev_name: "名称", ev_deals: "副数", ev_time: "每步时间（秒，不填用游戏默认）",
  ev_make: "创建比赛", ev_entrants: "参赛", ev_status: "状态", ev_none: "还没有比赛",
  ev_open: "报名中", ev_running: "进行中", ev_finished: "已结束", done_event: "已创建比赛 #{id}：{name}",
  ev_cancelled: "已取消", ev_cancel: "取消比赛", ev_end: "提前结束", ev_actions: "操作",
  ev_stop_reason: "原因（写入审计记录）：取消不计成绩、不改积分；提前结束按每桌都打完的牌副定排名。两者都马上关闭各桌，正在打的这局作废。",
  done_ev_stop: "比赛 #{id}：{status}",
});
Object.assign(TEXTS.en, {
  tab_catalogue: "Catalogue", tab_chat: "Chat reports",
  catalogue_hint: "Changes need no restart and hold on every node within seconds; open rooms play on.",
  game_defaults_are: "The game's own defaults:", defaults: "Defaults of a new room (JSON, e.g. {\"min_bet\": 2})",
  choices: "Values the room form offers (JSON, e.g. {\"banker_rotation\": [\"stay\"]})", save: "Save", close: "Close",
  house_title: "Add a house variant (TOML)", house_file: "File", house_text: "Text", house_add: "Check and add",
  house_hint: "One or more [[variant]] entries with new codes; an entry never changes once added: to change one, add a new code and turn the old one off.",
  on: "on", off: "off", turn_on: "Turn on", turn_off: "Turn off", edit: "Options", house: "house",
  not_playable: "not playable yet", done_game_on: "{code} is offered for new rooms", done_game_off: "{code} is off for new rooms",
  done_saved: "{code}: options saved", done_house: "Added: {codes}", bad_json: "Not valid JSON: {m}",
  bad_file: "The file has an error: {m}", chat_all: "Handled ones too", csv: "Export CSV", reported: "Reported",
  reporter: "By", lines: "Last lines", handle: "Handle", outcome: "Outcome (required)",
  open_report: "open", handled: "handled", done_handled: "Report #{id} handled", seat: "Seat",
  erase: "Erase player", erase_confirm: "Erase {who} for good? Their hands stay in the records under an anonymous seat.",
  done_erase: "Erased: now {name}; {n} hands kept", clubs: "Clubs",
  active_clubs: "Active clubs", club_rooms: "Club rooms", club_hands: "Club hands",
  band: "Band", band_rate: "Band's rate", threshold: "Threshold", reports_against: "Chat reports against them",
  band_beginner: "beginner", band_casual: "casual", band_strong: "strong", band_expert: "expert",
  band_unrated: "unrated", band_all: "everyone", above: "above threshold", chat_none: "No open reports",
  room: "Room",
  tab_events: "Duplicate events", ev_name: "Name", ev_deals: "Deals", ev_time: "Seconds a move (empty: the game's)",
  ev_make: "Make the event", ev_entrants: "Entrants", ev_status: "Status", ev_none: "No event yet",
  ev_open: "open", ev_running: "running", ev_finished: "finished", done_event: "Event #{id} made: {name}",
  ev_cancelled: "cancelled", ev_cancel: "Cancel", ev_end: "End now", ev_actions: "Actions",
  ev_stop_reason: "Reason (kept in the audit trail). Cancel scores nothing and moves no rating; End now makes the standings final over the deals every table finished. Both close every table at once, the hand in play void.",
  done_ev_stop: "Event #{id}: {status}",
});

const $ = (sel) => document.querySelector(sel);
let lang = (navigator.language || "zh").toLowerCase().startsWith("zh") ? "zh" : "en";
if (localStorage.getItem("paiju.admin.lang")) lang = localStorage.getItem("paiju.admin.lang");
let token = sessionStorage.getItem("paiju.admin.token");
let current = null; // the player on screen
let liveTimer = null;

function t(key, params = {}) {
  let s = (TEXTS[lang] && TEXTS[lang][key]) || TEXTS.en[key] || key;
  for (const [k, v] of Object.entries(params)) s = s.replace(`{${k}}`, v);
  return s;
}

function when(at) {
  if (at === null || at === undefined) return "-";
  const d = new Date(at * 1000);
  return d.toLocaleString(lang === "zh" ? "zh-CN" : "en-GB", { hour12: false });
}

function el(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const kid of kids) node.append(kid);
  return node;
}

function translate() {
  document.documentElement.lang = lang;
  document.title = t("title");
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  for (const node of document.querySelectorAll("[data-tp]")) node.placeholder = t(node.dataset.tp);
  $("#lang").textContent = lang === "zh" ? "EN" : "中文";
}

function flash(text, bad = false) {
  const f = $("#flash");
  f.textContent = text;
  f.className = bad ? "bad" : "";
}

async function call(method, path, body) {
  const headers = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const answer = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await answer.json().catch(() => ({}));
  if (answer.status === 401 && path !== "/api/admin/sessions") {
    signOut(false);
    throw new Error(t("bad_login"));
  }
  if (!answer.ok) {
    const e = data.error || {};
    throw new Error((e.text && e.text[lang]) || e.message || e.code || answer.status);
  }
  return data;
}

async function run(action) {
  try {
    await action();
  } catch (exc) {
    flash(exc.message, true);
  }
}

// -- signing in -------------------------------------------------------------------

$("#sign-in").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("#si-error").textContent = "";
  const body = {
    name: $("#si-name").value.trim(),
    password: $("#si-password").value,
    code: $("#si-code").value.trim(),
  };
  const answer = await fetch("/api/admin/sessions", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const e = data.error || {};
    $("#si-error").textContent = answer.status === 401 ? t("bad_login")
      : (e.text && e.text[lang]) || e.message || answer.status;
    return;
  }
  token = data.token;
  sessionStorage.setItem("paiju.admin.token", token);
  $("#si-password").value = "";
  $("#si-code").value = "";
  show(data.staff);
});

function signOut(tell = true) {
  if (tell && token) call("DELETE", "/api/admin/sessions").catch(() => {});
  token = null;
  sessionStorage.removeItem("paiju.admin.token");
  clearInterval(liveTimer);
  $("#console").hidden = true;
  $("#sign-in").hidden = false;
  $("#sign-out").hidden = true;
  $("#who").textContent = "";
}
$("#sign-out").addEventListener("click", () => signOut());

function show(staff) {
  $("#sign-in").hidden = true;
  $("#console").hidden = false;
  $("#sign-out").hidden = false;
  $("#who").textContent = `${staff.name} · ${staff.role}`;
  $("#who").dataset.role = staff.role;
  tab("live");
}

// -- tabs -------------------------------------------------------------------------

function tab(name) {
  for (const b of document.querySelectorAll("#tabs button")) {
    b.classList.toggle("on", b.dataset.tab === name);
  }
  for (const s of document.querySelectorAll(".tab")) s.hidden = s.id !== `tab-${name}`;
  clearInterval(liveTimer);
  flash("");
  if (name === "live" || name === "rooms") {
    run(live);
    liveTimer = setInterval(() => run(live), 5000);
  }
  if (name === "news") run(news);
  if (name === "catalogue") run(catalogue);
  if (name === "chat") run(chatReports);
  if (name === "trail") run(trail);
  if (name === "events") run(events);
}
for (const b of document.querySelectorAll("#tabs button")) {
  b.addEventListener("click", () => tab(b.dataset.tab));
}

// -- live -------------------------------------------------------------------------

async function live() {
  const data = await call("GET", "/api/admin/live");
  $("#live-online").textContent = data.players_online;
  $("#live-rooms").textContent = data.rooms;
  $("#live-hpm").textContent = data.hands_per_minute;
  $("#live-stuck").textContent = data.stuck.length;
  $("#live-stuck").classList.toggle("stuck", data.stuck.length > 0);
  $("#live-epm").textContent = data.errors_per_minute;
  $("#live-epm").classList.toggle("stuck", data.errors_per_minute > 0);
  // each node's own figures (one row on a single server); a node that did not answer says so
  const nodes = $("#live-nodes tbody");
  nodes.replaceChildren();
  for (const n of data.nodes) {
    const name = n.name === "single" ? t("single") : n.name;
    const cells = n.reachable
      ? [n.players_online, n.rooms, n.hands_per_minute, n.errors_per_minute].map((v, i) =>
        el("td", { text: v, class: i === 3 && v > 0 ? "stuck" : "" }))
      : [el("td", { text: t("no_answer"), class: "stuck", colspan: "4" })];
    nodes.append(el("tr", { "data-node": n.name }, el("td", { text: name }), ...cells));
  }
  const body = $("#live-games tbody");
  body.replaceChildren();
  for (const [code, states] of Object.entries(data.by_game)) {
    body.append(el("tr", {}, el("td", { text: code }), el("td", { text: states.waiting || 0 }),
      el("td", { text: states.playing || 0 }),
      el("td", { text: states.stuck || 0, class: states.stuck ? "stuck" : "" })));
  }
  const list = $("#room-list tbody");
  list.replaceChildren();
  for (const r of data.list) {
    const name = lang === "zh" ? r.name_zh : r.name_en;
    list.append(el("tr", {},
      el("td", {}, el("a", { href: "#", text: `#${r.id}`, onclick: (e) => { e.preventDefault(); $("#room-id").value = r.id; run(room); } })),
      el("td", { text: name }),
      el("td", { text: r.stuck ? t("stuck") : t(r.status) || r.status, class: r.stuck ? "stuck" : "" }),
      el("td", { text: `${r.connected}/${r.seats}` }),
      el("td", { text: r.node === "single" ? t("single") : r.node })));
  }
}

// -- players ----------------------------------------------------------------------

$("#search").addEventListener("submit", (ev) => {
  ev.preventDefault();
  run(async () => {
    const q = encodeURIComponent($("#search-q").value.trim());
    const data = await call("GET", `/api/admin/players?q=${q}`);
    const list = $("#found");
    list.replaceChildren();
    if (!data.players.length) list.append(el("li", { text: t("nothing") }));
    for (const p of data.players) {
      const label = `#${p.id} ${p.name}${p.login ? ` (${p.login})` : ""}`;
      list.append(el("li", {}, el("a", {
        href: "#", text: label, "data-player": p.id,
        onclick: (e) => { e.preventDefault(); run(() => openPlayer(p.id)); },
      })));
    }
  });
});

async function openPlayer(id) {
  const p = await call("GET", `/api/admin/players/${id}`);
  current = p;
  $("#file").hidden = false;
  $("#file-title").textContent = `#${p.id} ${p.name}`;
  const facts = $("#file-facts");
  facts.replaceChildren();
  const rows = [
    [t("login"), p.login || t("guest")],
    [t("since"), when(p.since)],
    [t("balance"), p.balance],
    [t("hands"), p.hands],
    [t("banned_until"), p.ban ? `${when(p.ban.until)} · ${p.ban.reason}` : t("none")],
    [t("muted_until"), p.mute ? `${when(p.mute.until)} · ${p.mute.reason}` : t("none")],
  ];
  for (const [k, v] of rows) facts.append(el("dt", { text: k }), el("dd", { text: String(v) }));
  facts.querySelectorAll("dd")[4].id = "file-ban";
  const sessions = $("#file-sessions tbody");
  sessions.replaceChildren();
  for (const s of p.sessions) {
    sessions.append(el("tr", {}, el("td", { text: s.device }), el("td", { text: s.address || "-" }),
      el("td", { text: when(s.last_seen) }),
      el("td", { text: s.ended ? `${t("ended")} (${s.why})` : t("open") })));
  }
  const against = $("#file-reports");
  against.replaceChildren();
  for (const r of p.chat_reports || []) {
    against.append(el("li", { text: `${when(r.at)} ${t("room")} #${r.room} · ${r.lines.map((l) => l.text).join(" | ") || "-"} · ${r.handled_at ? `${t("handled")}: ${r.outcome}` : t("open_report")}` }));
  }
  if (!against.children.length) against.append(el("li", { text: t("none") }));
  const trailList = $("#file-trail");
  trailList.replaceChildren();
  for (const e of p.trail) {
    trailList.append(el("li", { text: `${when(e.at)} ${e.actor} ${e.action}: ${e.reason}` }));
  }
}

$("#ban-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  run(async () => {
    const body = { days: Number($("#ban-days").value), reason: $("#ban-reason").value.trim() };
    const done = await call("POST", `/api/admin/players/${current.id}/ban`, body);
    flash(t("done_ban", { who: current.name, until: when(done.until) }));
    $("#ban-reason").value = "";
    await openPlayer(current.id);
  });
});
$("#unban-go").addEventListener("click", () => run(async () => {
  const reason = $("#ban-reason").value.trim() || "lifted in the console";
  await call("POST", `/api/admin/players/${current.id}/unban`, { reason });
  flash(t("done_unban"));
  await openPlayer(current.id);
}));
$("#mute-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  run(async () => {
    const body = { hours: Number($("#mute-hours").value), reason: $("#mute-reason").value.trim() };
    const done = await call("POST", `/api/admin/players/${current.id}/mute`, body);
    flash(t("done_mute", { until: when(done.until) }));
    await openPlayer(current.id);
  });
});
$("#unmute-go").addEventListener("click", () => run(async () => {
  const reason = $("#mute-reason").value.trim() || "lifted in the console";
  await call("POST", `/api/admin/players/${current.id}/unmute`, { reason });
  flash(t("done_unmute"));
  await openPlayer(current.id);
}));
$("#reset-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  run(async () => {
    const done = await call("POST", `/api/admin/players/${current.id}/reset`,
      { reason: $("#reset-reason").value.trim() });
    flash(t("done_reset", { p: done.password }));
    await openPlayer(current.id);
  });
});
$("#export-go").addEventListener("click", () => run(async () => {
  const data = await call("GET", `/api/admin/players/${current.id}/export`);
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: `player-${current.id}.json` });
  link.click();
  URL.revokeObjectURL(link.href);
}));

$("#erase-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  if (!window.confirm(t("erase_confirm", { who: `#${current.id} ${current.name}` }))) return;
  run(async () => {
    const done = await call("POST", `/api/admin/players/${current.id}/erase`,
      { reason: $("#erase-reason").value.trim() });
    $("#erase-reason").value = "";
    await openPlayer(current.id);
    flash(t("done_erase", { name: done.name, n: done.hands_kept }));
  });
});

// -- rooms ------------------------------------------------------------------------

async function room() {
  const id = Number($("#room-id").value);
  const data = await call("GET", `/api/admin/rooms/${id}`);
  $("#room-view").hidden = false;
  const info = data.room;
  $("#room-title").textContent = `#${info.id} ${lang === "zh" ? info.name_zh : info.name_en} · ${info.status}`;
  $("#room-json").textContent = JSON.stringify({ players: info.players, view: data.view }, null, 1);
}
$("#room-form").addEventListener("submit", (ev) => { ev.preventDefault(); run(room); });
$("#close-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  run(async () => {
    const id = Number($("#room-id").value);
    await call("POST", `/api/admin/rooms/${id}/close`, { reason: $("#close-reason").value.trim() });
    flash(t("done_close"));
    await room();
  });
});
$("#room-notice-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  run(async () => {
    const id = Number($("#room-id").value);
    await call("POST", `/api/admin/rooms/${id}/notice`,
      { zh: $("#room-notice-zh").value, en: $("#room-notice-en").value });
    flash(t("done_notice"));
  });
});

// -- announcements ----------------------------------------------------------------

function unix(input) {
  return input.value ? new Date(input.value).getTime() / 1000 : null;
}

async function news() {
  const data = await call("GET", "/api/admin/announcements");
  const list = $("#news-list");
  list.replaceChildren();
  for (const n of data.announcements) {
    const item = el("li", { text: `${t(n.kind)} · ${n.text[lang]} · ${when(n.starts)} – ${when(n.ends)}` });
    if (n.kind !== "notice") {
      item.append(el("button", { type: "button", text: t("withdraw"), onclick: () => run(async () => {
        await call("DELETE", `/api/admin/announcements/${n.id}`);
        await news();
      }) }));
    }
    list.append(item);
  }
}
$("#news-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  run(async () => {
    await call("POST", "/api/admin/announcements", {
      kind: $("#news-kind").value, zh: $("#news-zh").value, en: $("#news-en").value,
      starts: unix($("#news-starts")), ends: unix($("#news-ends")),
    });
    flash(t("done_news"));
    await news();
  });
});
$("#notice-all").addEventListener("click", () => run(async () => {
  await call("POST", "/api/admin/notice", { zh: $("#news-zh").value, en: $("#news-en").value });
  flash(t("done_notice"));
}));

// -- reports ----------------------------------------------------------------------

function table(head, rows) {
  const tb = el("table", { class: "small" });
  tb.append(el("tr", {}, ...head.map((h) => el("th", { text: h }))));
  for (const r of rows) tb.append(el("tr", {}, ...r.map((c) => (c instanceof Node ? el("td", {}, c) : el("td", { text: String(c) })))));
  return tb;
}

function replays(ids) {
  const span = el("span");
  for (const id of ids) span.append(el("a", { href: `/#/replay/${id}`, target: "_blank", text: `#${id}` }), " ");
  return span;
}

function chart(days) {
  const canvas = $("#chart");
  const ctx = canvas.getContext("2d");
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const hands = days.map((d) => Object.values(d.hands).reduce((a, b) => a + b, 0));
  const most = Math.max(1, ...hands, ...days.map((d) => d.active));
  const w = canvas.width / Math.max(1, days.length);
  ctx.font = "14px sans-serif";
  days.forEach((d, i) => {
    const hh = (hands[i] / most) * 170;
    const ah = (d.active / most) * 170;
    const ch = ((d.clubs ? d.clubs.hands : 0) / most) * 170;
    const bar = Math.max(1, w / 3 - 6);
    ctx.fillStyle = "#2c5aa0"; // hands
    ctx.fillRect(i * w + 4, 190 - hh, bar, hh);
    ctx.fillStyle = "#3a9d5d"; // of them at clubs' tables
    ctx.fillRect(i * w + 4 + w / 3, 190 - ch, bar, ch);
    ctx.fillStyle = "#e0a030"; // players active
    ctx.fillRect(i * w + 4 + (2 * w) / 3, 190 - ah, bar, ah);
    ctx.fillStyle = "#333";
    ctx.fillText(d.day.slice(5), i * w + 6, 210);
  });
  let x = 8; // the legend
  for (const [color, key] of [["#2c5aa0", "hands"], ["#3a9d5d", "club_hands"], ["#e0a030", "active"]]) {
    ctx.fillStyle = color;
    ctx.fillRect(x, 6, 12, 12);
    ctx.fillStyle = "#333";
    ctx.fillText(t(key), x + 16, 17);
    x += 24 + ctx.measureText(t(key)).width;
  }
}

$("#daily-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  run(async () => {
    $("#report").textContent = t("working");
    const data = await call("GET", `/api/admin/reports/daily?days=${Number($("#daily-days").value)}`);
    chart(data.days);
    const rows = data.days.map((d) => [d.day, d.active, d.new_players,
      Object.entries(d.hands).map(([c, n]) => `${c}:${n}`).join(" ") || "-",
      Object.values(d.rooms).reduce((a, b) => a + b, 0),
      d.bot_share === null ? "-" : `${Math.round(d.bot_share * 100)}%`,
      ["d1", "d7", "d30"].map((k) => (d.retention[k] === null ? "-" : `${Math.round(d.retention[k] * 100)}%`)).join(" / "),
      `${d.clubs.active} · ${d.clubs.rooms} · ${d.clubs.hands}`]);
    $("#report").replaceChildren(table(["", t("active"), t("new_players"), t("hands"), t("rooms"), t("bot_share"), t("retention"),
      `${t("active_clubs")} · ${t("club_rooms")} · ${t("club_hands")}`], rows));
    csvLink(`/api/admin/reports/daily?days=${Number($("#daily-days").value)}&format=csv`, `daily-${Number($("#daily-days").value)}.csv`);
  });
});
$("#collusion-go").addEventListener("click", () => run(async () => {
  $("#report").textContent = t("working");
  const data = await call("GET", "/api/admin/reports/collusion");
  const rows = data.pairs.map((f) => [`#${f.players[0]} + #${f.players[1]}`, f.shared_hands,
    f.z, f.p_value.toExponential(2), replays(f.hands)]);
  $("#report").replaceChildren(rows.length ? table([t("pair"), t("shared"), "z", t("p"), t("look")], rows) : t("nothing"));
  csvLink("/api/admin/reports/collusion?format=csv", "collusion.csv");
}));
$("#assistance-go").addEventListener("click", () => run(async () => {
  $("#report").textContent = t("working");
  const data = await call("GET", "/api/admin/reports/assistance");
  const pct = (x) => `${Math.round(x * 100)}%`;
  const rows = data.players.map((f) => [`#${f.player}`, t(`band_${f.band}`), f.decisions,
    el("span", { class: f.above_threshold ? "stuck" : "", text: pct(f.match_rate) }),
    `${pct(f.others_rate)} (${t(`band_${f.baseline}`)})`, pct(f.threshold),
    f.p_value === null ? "-" : f.p_value.toExponential(2), f.median_seconds ?? "-", replays(f.hands)]);
  $("#report").replaceChildren(rows.length ? table([t("player"), t("band"), t("decisions"), t("match"), t("band_rate"), t("threshold"), t("p"), t("seconds"), t("look")], rows) : t("nothing"));
  csvLink("/api/admin/reports/assistance?format=csv", "assistance.csv");
}));

/** A report's CSV, fetched with the staff token (a plain link cannot carry it). */
async function download(path, name) {
  const answer = await fetch(path, { headers: { Authorization: `Bearer ${token}` } });
  if (!answer.ok) throw new Error(String(answer.status));
  const link = el("a", { href: URL.createObjectURL(await answer.blob()), download: name });
  link.click();
  URL.revokeObjectURL(link.href);
}

function csvLink(path, name) {
  const link = $("#report-csv");
  link.hidden = false;
  link.dataset.path = path;
  link.dataset.name = name;
}
$("#report-csv").addEventListener("click", (ev) => {
  ev.preventDefault();
  const link = ev.currentTarget;
  run(() => download(link.dataset.path, link.dataset.name));
});

// -- chat reports -----------------------------------------------------------------

async function chatReports() {
  const every = $("#chat-all").checked;
  const list = $("#chat-list");
  list.dataset.ready = "0"; // set again once the list on screen is the new one
  const data = await call("GET", `/api/admin/chat-reports${every ? "?all=true" : ""}`);
  list.replaceChildren();
  if (!data.reports.length) list.append(el("li", { text: t("chat_none") }));
  for (const r of data.reports) {
    const who = (id, name) => el("a", { href: "#", text: `#${id} ${name || ""}`, "data-player": id,
      onclick: (e) => { e.preventDefault(); tab("players"); run(() => openPlayer(id)); } });
    const item = el("li", { class: "chat-report", "data-report": r.id },
      el("div", {}, `${when(r.at)} · ${t("room")} #${r.room} · ${t("seat")} ${r.seat + 1} · ${t("reported")} `,
        r.reported === null ? "-" : who(r.reported, r.reported_name), ` · ${t("reporter")} `, who(r.reporter, r.reporter_name)),
      el("blockquote", { text: r.lines.map((l) => l.text).join(" | ") || "-" }));
    if (r.hand) item.append(replays([r.hand]));
    if (r.handled_at) {
      item.append(el("div", { class: "hint", text: `${t("handled")} · ${r.handled_by}: ${r.outcome}` }));
    } else {
      const outcome = el("input", { class: "outcome", placeholder: t("outcome"), required: "" });
      item.append(el("form", { class: "row", onsubmit: (e) => {
        e.preventDefault();
        run(async () => {
          await call("POST", `/api/admin/chat-reports/${r.id}/handle`, { outcome: outcome.value.trim() });
          flash(t("done_handled", { id: r.id }));
          await chatReports();
        });
      } }, outcome, el("button", { type: "submit", class: "handle", text: t("handle") })));
    }
    list.append(item);
  }
  list.dataset.ready = "1";
}
$("#chat-all").addEventListener("change", () => run(chatReports));
$("#chat-csv").addEventListener("click", (ev) => {
  ev.preventDefault();
  run(() => download(`/api/admin/chat-reports?format=csv${$("#chat-all").checked ? "&all=true" : ""}`, "chat-reports.csv"));
});

// -- the trail --------------------------------------------------------------------

async function trail() {
  const data = await call("GET", "/api/admin/audit");
  $("#trail-state").textContent = data.broken === null ? t("intact", { n: data.count }) : t("broken", { id: data.broken });
  $("#trail-state").className = data.broken === null ? "" : "stuck";
  const body = $("#trail tbody");
  body.replaceChildren(el("tr", {}, ...[t("at"), t("actor"), t("action"), t("target"), t("address")].map((h) => el("th", { text: h }))));
  for (const e of data.entries) {
    body.append(el("tr", {}, el("td", { text: when(e.at) }), el("td", { text: e.actor }),
      el("td", { text: `${e.action}: ${e.reason}` }), el("td", { text: e.target ?? "-" }),
      el("td", { text: e.address || "-" })));
  }
}

// -- the catalogue ----------------------------------------------------------------

let editing = null; // the game whose options are on screen

async function catalogue() {
  const data = await call("GET", "/api/admin/catalogue");
  const list = $("#cat-list");
  list.replaceChildren();
  for (const g of data.games) {
    const name = lang === "zh" ? g.name_zh : g.name_en;
    const item = el("li", { class: `cat-game${g.enabled ? "" : " off"}`, "data-code": g.code },
      el("span", { class: "name", text: `${g.code} · ${name}` }));
    if (g.house) item.append(el("span", { class: "tag", text: t("house") }));
    if (!g.playable) {
      item.append(el("span", { class: "hint", text: t("not_playable") }));
    } else {
      item.append(el("span", { class: g.enabled ? "tag" : "tag off", text: g.enabled ? t("on") : t("off") }));
      item.append(el("button", { type: "button", class: "cat-toggle", text: g.enabled ? t("turn_off") : t("turn_on"),
        onclick: () => run(async () => {
          await call("PUT", `/api/admin/catalogue/${encodeURIComponent(g.code)}`, { enabled: !g.enabled });
          flash(t(g.enabled ? "done_game_off" : "done_game_on", { code: g.code }));
          await catalogue();
        }) }));
      item.append(el("button", { type: "button", class: "cat-edit", text: t("edit"), onclick: () => openGame(g) }));
    }
    list.append(item);
  }
}

function openGame(g) {
  editing = g;
  $("#cat-edit").hidden = false;
  $("#cat-title").textContent = `${g.code} · ${lang === "zh" ? g.name_zh : g.name_en}`;
  $("#cat-options").textContent = JSON.stringify(g.options);
  $("#cat-defaults").value = JSON.stringify(g.defaults);
  $("#cat-choices").value = JSON.stringify(g.choices);
  $("#cat-edit").scrollIntoView({ block: "nearest" });
}

function parsed(input) {
  try {
    return JSON.parse(input.value.trim() || "{}");
  } catch (exc) {
    throw new Error(t("bad_json", { m: input.value }));
  }
}

$("#cat-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  run(async () => {
    const body = { defaults: parsed($("#cat-defaults")), choices: parsed($("#cat-choices")) };
    await call("PUT", `/api/admin/catalogue/${encodeURIComponent(editing.code)}`, body);
    flash(t("done_saved", { code: editing.code }));
    await catalogue();
  });
});
$("#cat-close").addEventListener("click", () => { $("#cat-edit").hidden = true; });

$("#house-file").addEventListener("change", async () => {
  const file = $("#house-file").files[0];
  if (file) $("#house-text").value = await file.text();
});
$("#house-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("#house-error").textContent = "";
  const file = $("#house-file").files[0];
  try {
    const done = await call("POST", "/api/admin/catalogue/house",
      { name: file ? file.name : "house.toml", text: $("#house-text").value });
    flash(t("done_house", { codes: done.added.map((v) => v.code).join(", ") }));
    $("#house-text").value = "";
    await catalogue();
  } catch (exc) {
    $("#house-error").textContent = t("bad_file", { m: exc.message });
  }
});

// -- start ------------------------------------------------------------------------

$("#lang").addEventListener("click", () => {
  lang = lang === "zh" ? "en" : "zh";
  localStorage.setItem("paiju.admin.lang", lang);
  translate();
  if (current && !$("#file").hidden) run(() => openPlayer(current.id));
  if (!$("#tab-catalogue").hidden) run(catalogue);
  if (!$("#tab-chat").hidden) run(chatReports);
  if (!$("#tab-events").hidden) run(events);
});

translate();
if (token) {
  call("GET", "/api/admin/me").then(show).catch(() => signOut(false));
}

// -- duplicate events (复式赛) --------------------------------------------------------
// The operator's events (docs/events.md): listed as anyone sees them (no club's), made
// with the console's session; entrants join and it starts from the players' pages.

async function events() {
  const [cat, found] = await Promise.all([
    call("GET", "/api/admin/catalogue"),
    fetch("/api/events").then((r) => r.json()), // the operator's events are public
  ]);
  const names = new Map(cat.games.map((g) => [g.code, lang === "zh" ? g.name_zh : g.name_en]));
  const pick = $("#event-code");
  const chosen = pick.value;
  pick.replaceChildren(...cat.games.filter((g) => g.playable && g.enabled).map((g) =>
    el("option", { value: g.code, text: `${g.code} · ${names.get(g.code)}` })));
  if (chosen) pick.value = chosen;
  const body = $("#event-list tbody");
  body.replaceChildren();
  for (const ev of found.events || []) {
    body.append(el("tr", { "data-event": ev.id, "data-status": ev.status },
      el("td", {}, el("a", { href: `/#/event/${ev.id}`, target: "_blank", text: `#${ev.id}` })),
      el("td", { text: ev.name || "-" }),
      el("td", { text: `${ev.code} · ${names.get(ev.code) || ""}` }),
      el("td", { text: ev.deals }),
      el("td", { text: ev.entrants }),
      el("td", { text: t(`ev_${ev.status}`) }),
      el("td", {}, ...stopButtons(ev))));
  }
  $("#event-none").hidden = (found.events || []).length > 0;
}

function stopButtons(ev) {
  const stop = (how) => () => run(async () => {
    const reason = window.prompt(t("ev_stop_reason"));
    if (reason === null) return;
    const done = await call("POST", `/api/events/${ev.id}/${how}`, { reason: reason.trim() });
    await events();
    flash(t("done_ev_stop", { id: ev.id, status: t(`ev_${done.status}`) }));
  });
  const out = [];
  if (ev.status === "open" || ev.status === "running") {
    out.push(el("button", { type: "button", class: "danger", "data-stop": "cancel", text: t("ev_cancel"), onclick: stop("cancel") }));
  }
  if (ev.status === "running") {
    out.push(el("button", { type: "button", "data-stop": "end", text: t("ev_end"), onclick: stop("end") }));
  }
  return out;
}

$("#event-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  run(async () => {
    const seconds = $("#event-time").value.trim();
    const made = await call("POST", "/api/events", {
      name: $("#event-name").value.trim(),
      code: $("#event-code").value,
      deals: Number($("#event-deals").value),
      time_limit: seconds === "" ? null : Number(seconds),
    });
    $("#event-name").value = "";
    await events();
    flash(t("done_event", { id: made.id, name: made.name || made.code }));
  });
});
