import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.test import APIClient

from tests.api.conftest import assert_problem

pytestmark = pytest.mark.django_db


def test_register_returns_a_working_token(anon):
    response = anon.post(
        "/api/accounts/register",
        {"username": "ada", "password": "correct-horse-battery"},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["username"] == "ada" and len(body["token"]) == 40
    anon.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert anon.get("/api/me").json()["username"] == "ada"


def test_a_weak_password_is_a_validation_error_and_a_taken_username_has_its_code(anon, users):
    body = assert_problem(
        anon.post("/api/accounts/register", {"username": "ada", "password": "123"}, format="json"),
        400,
        "validation_error",
    )
    # the password's own errors, so a form can show them beside it
    assert list(body["errors"]) == ["password"]
    assert any("too short" in message for message in body["errors"]["password"])
    body = assert_problem(
        anon.post(
            "/api/accounts/register",
            {"username": "alice", "password": "correct-horse-battery"},
            format="json",
        ),
        400,
        "username_taken",
    )
    assert "username" in body["errors"]


def test_token_obtain_and_revoke(anon, users):
    token = anon.post(
        "/api/auth/token", {"username": "alice", "password": "pw-alice-123"}, format="json"
    )
    assert token.status_code == 200
    anon.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    assert anon.get("/api/me").status_code == 200
    assert anon.delete("/api/auth/token").status_code == 204
    assert_problem(anon.get("/api/me"), 401, "authentication_failed")


def test_a_log_out_with_a_body_it_does_not_take_is_refused_and_keeps_the_token(anon, users):
    token = anon.post(
        "/api/auth/token", {"username": "alice", "password": "pw-alice-123"}, format="json"
    )
    anon.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    refused = anon.delete("/api/auth/token", "x" * 1000, content_type="text/plain")
    assert_problem(refused, 415, "unsupported_media_type")
    assert_problem(anon.delete("/api/auth/token", {"all": True}, format="json"), 400,
                   "validation_error")  # fmt: skip
    assert anon.get("/api/me").status_code == 200
    assert anon.delete("/api/auth/token", {}, format="json").status_code == 204


def test_wrong_credentials(anon, users):
    assert_problem(
        anon.post("/api/auth/token", {"username": "alice", "password": "nope"}, format="json"),
        401,
        "invalid_credentials",
    )


def test_anonymous_requests_are_401(anon):
    assert_problem(anon.get("/api/me"), 401, "not_authenticated")
    assert_problem(anon.get("/api/matches"), 401, "not_authenticated")


def test_a_401_challenges_with_the_scheme_the_schema_names(anon):
    """It said ``Token``, a scheme of its own, while the schema (what client generators
    read) names an HTTP bearer token."""
    schemes = anon.get("/api/schema/", {"format": "json"}).json()["components"]["securitySchemes"]
    assert {"type": "http", "scheme": "bearer"}.items() <= schemes["tokenAuth"].items()
    refused = anon.get("/api/me", HTTP_AUTHORIZATION="Bearer not-a-token")
    assert_problem(refused, 401, "authentication_failed")
    for response in (anon.get("/api/me"), refused):
        assert response["WWW-Authenticate"] == 'Bearer realm="api"'


def test_rulesets_list_every_preset_and_option(anon):
    body = anon.get("/api/rulesets").json()
    assert [r["preset"] for r in body] == [
        "flick-nines",
        "nine-card",
        "six-card",
        "six-card-instant",
        "six-card-jokers",
        "vanikar-six",
        "yorimichi-basic",
        "yorimichi-instant",
        "yorimichi-jokers",
    ]
    six = next(r for r in body if r["preset"] == "six-card")
    options = {o["name"]: o for o in six["options"]}
    assert options["final_turns"]["schema"]["enum"] == ["others_once", "none"]
    assert options["grid"]["default"] == "2x3" and options["holes"]["default"] == 9
    # every option, and the points table derived from them
    assert set(options) == set(six["rules"]) - {"preset", "points"}
    assert six["rules"]["points"]["K"] == 0 and six["rules"]["points"]["2"] == -2


def test_games_describe_their_seats_presets_options_and_com_levels(anon):
    games = {g["name"]: g for g in anon.get("/api/games").json()}
    golf = games["golf"]
    assert golf["seats"] == {"min": 2, "max": 6} and golf["round_name"] == "hole"
    assert golf["default_preset"] == "six-card" and golf["com_levels"] == ["easy", "normal", "hard"]
    presets = {p["name"]: p["rules"] for p in golf["presets"]}
    assert presets["nine-card"]["grid"] == "3x3"
    options = {o["name"]: o for o in golf["options"]}
    schema = options["holes"]["schema"]
    assert (schema["type"], schema["minimum"], schema["maximum"]) == ("integer", 1, 18)
    assert options["holes"]["default"] == 9 and options["undo"]["doc"]
    # each preset says the table sizes it can be played with
    hearts = {p["name"]: p["seats"] for p in games["hearts"]["presets"]}
    assert hearts == {"hearts": {"min": 3, "max": 5}, "hearts-classic": {"min": 4, "max": 4}}
    sizes = {p["name"]: p["seats"] for p in golf["presets"]}
    assert sizes["six-card"] == {"min": 2, "max": 6}


def test_a_username_is_checked_as_it_is_stored(anon):
    """Usernames are stored after NFKC: a name whose normal form holds characters no
    username may (spaces, a fraction slash) is refused, not stored as one the admin's own
    form then refuses to save."""
    for name in ("ab\ufdfa", "\u00bd\u00bd\u00bd"):  # "ﷺ" becomes 18 letters with spaces
        body = {"username": name, "password": "pw-a-long-one-123"}
        problem = assert_problem(
            anon.post("/api/accounts/register", body, format="json"), 400, "validation_error"
        )
        assert "once normalised" in problem["errors"]["username"][0]
    body = {"username": "a\u1100\u1161", "password": "pw-a-long-one-123"}  # NFKC: "a가"
    problem = assert_problem(
        anon.post("/api/accounts/register", body, format="json"), 400, "validation_error"
    )
    assert "too short once normalised" in problem["errors"]["username"][0]
    body = {"username": "\uff41\uff44\uff41", "password": "pw-a-long-one-123"}  # full-width
    assert anon.post("/api/accounts/register", body, format="json").status_code == 201


def test_a_username_mixing_scripts_is_refused_one_of_one_script_is_not(anon, users):
    """A Cyrillic "a" in place of a Latin one registered beside "alice", and looked just
    like it in every list and at every table."""

    def register(name):
        body = {"username": name, "password": "pw-a-long-one-123"}
        return anon.post("/api/accounts/register", body, format="json")

    for name, scripts in (("\u0430lice", "Cyrillic and Latin"), ("\u03a9mega7", "Greek and Latin")):
        problem = assert_problem(register(name), 400, "validation_error")
        assert problem["errors"]["username"] == [
            "a username is written in one script (or Latin with Japanese, Chinese or "
            f"Korean): this one mixes {scripts}"
        ]
    # one script, or Latin with Japanese's, Chinese's or Korean's; digits and _ . - go
    for name in (
        "\u0430\u043b\u0438\u0441\u0430",
        "\u5c71\u7530taro",
        "\u3084\u307e\u3060\u592a\u90ce_2",
        "kim\ud55c\uad6d",
        "jos\u00e9.m-1",
    ):
        assert register(name).status_code == 201, name
    # and so do the admin's forms, for a name given there; an account's old name is kept
    root = type(users["alice"]).objects.create_superuser("root", password="pw-root-123")
    admin = Client()
    admin.force_login(root)
    password = {"password1": "pw-a-long-one-123", "password2": "pw-a-long-one-123"}
    added = admin.post("/admin/accounts/user/add/", {"username": "\u0430lice2", **password})
    assert "mixes Cyrillic and Latin" in added.content.decode()
    legacy = type(root).objects.create_user("\u0430lex", password="pw-a-long-one-123")
    page = f"/admin/accounts/user/{legacy.pk}/change/"
    form = {"username": "\u0430lex", "is_active": "on", "date_joined_0": "2026-01-01"}
    form |= {"date_joined_1": "00:00:00", "suspensions-TOTAL_FORMS": "0"}
    form |= {"suspensions-INITIAL_FORMS": "0"}
    kept = admin.post(page, form)
    assert kept.status_code == 302, kept.content.decode()[:2000]
    renamed = admin.post(page, {**form, "username": "\u0430lexa"})
    assert "mixes Cyrillic and Latin" in renamed.content.decode()


def set_in_the_admin(user, password):
    """A superuser sets ``user``'s password on the admin's password page."""
    root = type(user).objects.create_superuser("root", password="pw-root-123")
    admin = Client()
    admin.force_login(root)
    body = {"password1": password, "password2": password, "usable_password": "true"}
    return admin.post(f"/admin/accounts/user/{user.pk}/password/", body)


def log_in(username, password):
    body = {"username": username, "password": password}
    return APIClient().post("/api/auth/token", body, format="json")


@pytest.fixture
def legacy_pair(django_user_model):
    """Two accounts whose names shared a canonical form before usernames were unique in
    it: migration 0002 gave the later one ``<name>#<id>``."""
    first = django_user_model.objects.create_user("bob", password="pw-bob-123")
    second = django_user_model.objects.create_user("tmpname", password="pw-BOB-123")
    django_user_model.objects.filter(pk=second.pk).update(
        username="BOB", username_canonical=f"bob#{second.pk}"
    )
    second.refresh_from_db()
    return first, second


def test_an_account_with_a_suffixed_canonical_name_can_still_be_saved_and_managed(
    legacy_pair, django_user_model
):
    """Its save gave it the other's canonical name (an IntegrityError: the admin's
    password change was a 500) and its change form said its own name was taken."""
    _, second = legacy_pair
    second.set_password("new-pass-456")
    second.save()
    second.refresh_from_db()
    assert second.username_canonical == f"bob#{second.pk}"
    assert set_in_the_admin(second, "Another-pass-789").status_code == 302
    assert log_in("BOB", "Another-pass-789").status_code == 200
    second.refresh_from_db()
    second.validate_unique()  # its own name is not "taken" (the change form's check)
    # renamed, it takes the new name's canonical form, and a taken one is refused
    second.username = "bobby"
    second.save()
    assert django_user_model.objects.get(pk=second.pk).username_canonical == "bobby"
    second.username = "Bob"
    with pytest.raises(ValidationError):
        second.validate_unique()


def test_a_new_password_revokes_the_accounts_tokens(users, alice):
    """Changing a stolen account's password (an operator, in the admin) leaves the thief's
    token working no longer."""
    assert alice.get("/api/me").status_code == 200
    assert set_in_the_admin(users["alice"], "Another-pass-789").status_code == 302
    assert_problem(alice.get("/api/me"), 401, "authentication_failed")
    assert log_in("alice", "Another-pass-789").status_code == 200


def test_a_password_disabled_in_the_admin_revokes_the_accounts_tokens(users, alice):
    """The admin's "password-based authentication: disabled" (an unusable password) shut
    out only a session: a stolen account's token went on working."""
    root = type(users["alice"]).objects.create_superuser("root", password="pw-root-123")
    admin = Client()
    admin.force_login(root)
    body = {"usable_password": "false", "password1": "", "password2": "", "unset-password": "1"}
    assert (
        admin.post(f"/admin/accounts/user/{users['alice'].pk}/password/", body).status_code == 302
    )
    users["alice"].refresh_from_db()
    assert not users["alice"].has_usable_password()
    assert_problem(alice.get("/api/me"), 401, "authentication_failed")
    assert_problem(log_in("alice", "pw-alice-123"), 401, "invalid_credentials")


@pytest.mark.parametrize("race", ["new password", "suspension"])
def test_a_log_in_racing_a_new_password_or_a_suspension_makes_no_token_that_outlives_it(
    users, monkeypatch, race
):
    """The old password checked (a slow hash), then an operator's new password or
    suspension written before the token was made: the log-in's token outlived the
    revocation (after a suspension, working again once it was lifted)."""
    from rest_framework.authtoken.models import Token

    from accounts.backends import GuardedModelBackend
    from accounts.moderation import account_lift, account_suspend

    root = type(users["alice"]).objects.create_superuser("root", password="pw-root-123")
    checked = GuardedModelBackend._check

    def check_then_revoke(username, password):
        found = checked(username, password)
        if race == "new password":
            alice = type(users["alice"]).objects.get(pk=users["alice"].pk)
            alice.set_password("Operator-reset-789")
            alice.save()
        else:
            account_suspend(user=users["alice"], by=root, reason="stolen", running="com")
        return found

    monkeypatch.setattr(GuardedModelBackend, "_check", staticmethod(check_then_revoke))
    answer = log_in("alice", "pw-alice-123")
    if race == "new password":
        assert_problem(answer, 401, "invalid_credentials")
    else:
        assert_problem(answer, 403, "account_suspended")
        account_lift(user=users["alice"], by=root)
    assert not Token.objects.filter(user=users["alice"]).exists()


def test_a_log_in_whose_hash_another_log_in_upgraded_meanwhile_still_gets_its_token(
    users, monkeypatch
):
    """Two log-ins at once, each upgrading the hash (a new salt): the one locking the row
    second found another hash and was refused its right password."""
    from accounts.backends import GuardedModelBackend

    checked = GuardedModelBackend._check

    def check_then_another_upgrades(username, password):
        found = checked(username, password)
        alice = type(users["alice"]).objects.get(pk=users["alice"].pk)
        alice.set_password(password)  # the same password, hashed anew
        type(alice).objects.filter(pk=alice.pk).update(password=alice.password)
        return found

    monkeypatch.setattr(GuardedModelBackend, "_check", staticmethod(check_then_another_upgrades))
    assert log_in("alice", "pw-alice-123").status_code == 200


def test_a_password_is_kept_as_typed_spaces_and_all(anon, django_user_model):
    """Passwords were trimmed: one registered with a space at either end was stored
    without it, and an account given one in the admin could never log in by the API."""
    typed = "  correct-horse-battery "
    body = {"username": "dora", "password": typed}
    assert anon.post("/api/accounts/register", body, format="json").status_code == 201
    assert django_user_model.objects.get(username="dora").check_password(typed)
    assert log_in("dora", typed).status_code == 200
    assert_problem(log_in("dora", typed.strip()), 401, "invalid_credentials")


def test_a_stale_token_sent_with_a_log_in_or_registration_refuses_neither(users, alice):
    """A client still sending the token a new password revoked was refused its log-in
    (401 "Invalid token.") whatever the password."""
    stale = APIClient()
    stale.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    log = stale.post(
        "/api/auth/token", {"username": "bob", "password": "pw-bob-123"}, format="json"
    )
    assert log.status_code == 200 and len(log.json()["token"]) == 40
    body = {"username": "frank", "password": "correct-horse-battery"}
    assert stale.post("/api/accounts/register", body, format="json").status_code == 201
    assert_problem(stale.delete("/api/auth/token"), 401, "authentication_failed")  # log-out


def test_a_password_hash_upgrade_on_log_in_revokes_nothing(users, alice, monkeypatch):
    from django.contrib.auth.hashers import get_hasher

    monkeypatch.setattr(type(get_hasher()), "must_update", lambda self, encoded: True)
    assert log_in("alice", "pw-alice-123").status_code == 200
    assert alice.get("/api/me").status_code == 200  # the token another device holds
