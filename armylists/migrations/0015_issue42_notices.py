"""Issue 42: notices of an event's submissions (returned, approved, resubmitted) for players and organisers."""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("armylists", "0014_issue39_history_summaries_and_data_books"),
                    migrations.swappable_dependency(settings.AUTH_USER_MODEL)]

    operations = [
        migrations.CreateModel(
            name="Notice",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("kind", models.CharField(choices=[("returned", "Returned"), ("approved", "Approved"),
                                                   ("resubmitted", "Resubmitted")], max_length=12)),
                ("note", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("read", models.BooleanField(default=False)),
                ("submission", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="notices",
                                                 to="armylists.submission")),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="notices",
                                           to=settings.AUTH_USER_MODEL)),
            ],
            options={"ordering": ["-created_at", "-id"],
                     "indexes": [models.Index(fields=["user", "read"], name="notice_user_unread")]},
        ),
    ]
