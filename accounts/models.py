from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A player, operator or admin. Custom from the first migration so it can grow."""

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
