// The operators' console in headless Chromium: a staff account logs in to the admin, opens
// the dashboard, suspends an account and lifts the suspension, and opens a running match's
// page at past versions; at each, no card the spectator's view hides may be on the page
// (the hidden cards are worked out by the test from the match's whole state in the store).
//
//   node tests/admin/admin_browser.mjs <base url> <plan json file> <screenshot dir> [<publish dir>]
//
// The plan: {"username", "password", "account": {"id", "username"}, "dashboard": true|false,
//            "matches": [{"id", "game", "versions": {"<version>": ["<hidden card>", ...]}}]}.
// The first match is walked back version by version (the slider's previous link, then the
// range input); each other match is opened at its one past version.
// Prints, last, a summary line {"done": true, ...}.
import { readFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { launch, newPage, publishShots, say } from "../web/harness.mjs";

const [base, planFile, shots, publish] = process.argv.slice(2);
if (!base || !planFile || !shots) throw new Error("usage: admin_browser.mjs <base url> <plan json file> <screenshot dir> [<publish dir>]");
const plan = JSON.parse(readFileSync(planFile, "utf8"));
mkdirSync(shots, { recursive: true });
const CARD = /\b(?:[2-9TJQKA][SHDC]|X[RB])\b/g;

const summary = { done: false, steps: [], versions: [], hiddenChecked: 0, shownCards: {}, screenshots: [] };
const shot = async (page, name) => {
  const file = join(shots, `admin-${name}.png`);
  await page.screenshot({ path: file });
  summary.screenshots.push(file);
};
/** The page's status, or a failure naming it. */
const open = async (page, path) => {
  const response = await page.goto(`${base}${path}`);
  if (!response.ok()) throw new Error(`GET ${path}: ${response.status()}`);
  return response;
};

const browser = await launch();
try {
  const { page, consoleErrors } = await newPage(browser, 1200, 800);
  // the admin has no favicon; Chromium's own request for one is not the page's error
  await page.route("**/favicon.ico", (route) => route.fulfill({ status: 204, body: "" }));

  // log in as staff
  await open(page, "/admin/login/?next=/admin/");
  await page.locator("#id_username").fill(plan.username);
  await page.locator("#id_password").fill(plan.password);
  await Promise.all([page.waitForURL(`${base}/admin/`), page.locator("input[type=submit]").click()]);
  summary.steps.push("login");

  // the dashboard
  if (plan.dashboard) {
    await open(page, "/admin/ops/dashboard/");
    summary.dashboardTitle = await page.title();
    summary.dashboardActive = await page.locator("#ops-matches tr[data-game]").evaluateAll((rows) =>
      Object.fromEntries(rows.map((row) => [row.getAttribute("data-game"), Number(row.querySelector("td[data-status=active]")?.textContent ?? -1)])),
    );
    await shot(page, "browser-dashboard");
    summary.steps.push("dashboard");
  }

  // suspend an account, then lift the suspension
  const account = `/admin/accounts/user/${plan.account.id}/change/`;
  await open(page, account);
  await Promise.all([page.waitForURL(/\/admin\/accounts\/user\/suspend\//), page.locator("#suspend-link").click()]);
  await page.locator("textarea[name=reason]").fill("a browser test of the console");
  await page.locator("input[name=running][value=abort]").check();
  await shot(page, "suspend");
  await Promise.all([page.waitForURL(`${base}${account}`), page.locator("#suspend-form input[type=submit]").click()]);
  summary.suspendedMessage = await page.locator("ul.messagelist").textContent();
  summary.liftShown = await page.getByRole("button", { name: "Lift the suspension" }).isVisible();
  await shot(page, "suspended");
  summary.steps.push("suspend");
  await Promise.all([page.waitForURL(`${base}${account}`), page.getByRole("button", { name: "Lift the suspension" }).click()]);
  summary.liftedMessage = await page.locator("ul.messagelist").textContent();
  summary.suspendShownAgain = await page.locator("#suspend-link").isVisible();
  summary.steps.push("lift");

  // running matches at past versions
  const check = async (match, version) => {
    const shownVersion = Number(await page.locator(".mp-board").getAttribute("data-version"));
    if (shownVersion !== version) throw new Error(`the page shows version ${shownVersion}, not ${version}`);
    const html = await page.content();
    const onPage = new Set(html.match(CARD) ?? []);
    const hidden = match.versions[String(version)];
    const leaked = hidden.filter((card) => onPage.has(card));
    if (leaked.length) throw new Error(`${match.game} version ${version}: hidden cards on the page: ${leaked.join(" ")}`);
    summary.hiddenChecked += hidden.length;
    const cards = await page.locator(".mp-board [data-card]:not([data-card=''])").evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-card")));
    summary.shownCards[`${match.id}@${version}`] = cards;
    summary.versions.push(`${match.game}@${version}`);
  };
  const [first, ...others] = plan.matches;
  const versions = Object.keys(first.versions).map(Number).sort((a, b) => b - a);
  await open(page, `/admin/golf/match/${first.id}/state/?version=${versions[0]}`);
  summary.sliderMax = Number(await page.locator("#mp-version").getAttribute("max"));
  await check(first, versions[0]);
  await shot(page, `match-${first.game}`);
  for (const version of versions.slice(1)) {
    await Promise.all([page.waitForURL(new RegExp(`version=${version}$`)), page.locator("a[rel=prev]").click()]);
    await check(first, version);
  }
  // and the range input itself: moved to the first past version again, it shows that one
  await page.locator("#mp-version").fill(String(versions[0]));
  await page.waitForURL(new RegExp(`version=${versions[0]}$`));
  await check(first, versions[0]);
  for (const match of others) {
    const [version] = Object.keys(match.versions).map(Number);
    await open(page, `/admin/golf/match/${match.id}/state/?version=${version}`);
    await check(match, version);
    await shot(page, `match-${match.game}`);
  }
  summary.steps.push("match");

  summary.consoleErrors = consoleErrors;
  summary.done = true;
} finally {
  await browser.close();
}
publishShots(summary.screenshots, publish);
say(summary);
