"""What the API reads and writes. Input checks shape only; legality is the engine's Report."""
from __future__ import annotations

from rest_framework import serializers

from armylists.lists.kinds import kind_for_book
from armylists.lists.library.catalogue import book_for
from armylists.models import MAX_REVISION, ArmyList
from armylists.rules import ListDocumentError, parse_roster

from armylists.api.errors import document_error


class ListDocumentField(serializers.JSONField):
    """A list document (docs/list-format.md); validated into a Roster that names a book we have."""

    def to_internal_value(self, data):
        data = super().to_internal_value(data)
        try:
            roster = parse_roster(data, "")
            # A stored list of an imported BattleScribe book is a roster tree, whatever door made it.
            book = book_for(roster, "")
            return kind_for_book(book).take(book, roster, "")
        except ListDocumentError as exc:
            raise serializers.ValidationError(document_error(exc, prefix="").detail) from None


class ListWriteSerializer(serializers.Serializer):
    document = ListDocumentField(help_text="The list document (docs/list-format.md).")
    revision = serializers.IntegerField(required=False, min_value=1, max_value=MAX_REVISION,
                                        help_text="The revision you read; or send it as If-Match.")


class ArmyListSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = ArmyList
        fields = ["id", "name", "system", "book", "book_version", "points_limit", "total_points", "valid",
                  "revision", "created", "updated"]
        read_only_fields = fields


class ArmyListSerializer(ArmyListSummarySerializer):
    document = serializers.JSONField(read_only=True)

    class Meta(ArmyListSummarySerializer.Meta):
        fields = ArmyListSummarySerializer.Meta.fields + ["document"]
        read_only_fields = fields


class ViolationSerializer(serializers.Serializer):
    code = serializers.CharField()
    severity = serializers.ChoiceField(choices=["error", "warning"])
    message = serializers.CharField()
    unit = serializers.CharField(allow_null=True)
    rule = serializers.CharField()
    source = serializers.CharField()


class CategorySerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    points = serializers.IntegerField()
    percent = serializers.FloatField()
    min_percent = serializers.IntegerField(allow_null=True)
    max_percent = serializers.IntegerField(allow_null=True)
    units = serializers.IntegerField()
    state = serializers.ChoiceField(choices=["ok", "low", "high"])


class UnitLineSerializer(serializers.Serializer):
    id = serializers.CharField()
    entry = serializers.CharField()
    name = serializers.CharField()
    category = serializers.CharField()
    points = serializers.IntegerField()
    models = serializers.IntegerField()
    allied = serializers.BooleanField(help_text="An entry of the list's allies book, counted in the allies category.")


class AlliesSerializer(serializers.Serializer):
    book = serializers.CharField()
    book_version = serializers.CharField()
    name = serializers.CharField()
    composition = serializers.CharField(allow_null=True)


class CountSerializer(serializers.Serializer):
    label = serializers.CharField()
    value = serializers.IntegerField()
    what = serializers.ChoiceField(choices=["units", "models", "points"])
    min = serializers.IntegerField(allow_null=True)
    max = serializers.IntegerField(allow_null=True)


class DataAsOfSerializer(serializers.Serializer):
    book = serializers.CharField()
    book_version = serializers.CharField()
    data_version = serializers.CharField(allow_null=True, help_text="source, release or commit; null: the site's own data")
    date = serializers.CharField(allow_null=True)
    text = serializers.CharField()


class ReportSerializer(serializers.Serializer):
    """The engine's Report, as `Report.to_dict()` gives it (documented here for the OpenAPI schema)."""
    valid = serializers.BooleanField()
    system = serializers.CharField()
    book = serializers.CharField()
    book_version = serializers.CharField()
    points_limit = serializers.IntegerField()
    total_points = serializers.IntegerField()
    points_left = serializers.IntegerField()
    budget_unit = serializers.CharField()
    band = serializers.CharField(allow_null=True)
    band_name = serializers.CharField(allow_null=True)
    categories = CategorySerializer(many=True)
    units = UnitLineSerializer(many=True)
    figures = serializers.DictField(child=serializers.IntegerField())
    violations = ViolationSerializer(many=True)
    unchecked = serializers.ListField(child=serializers.CharField())
    counts = CountSerializer(many=True)
    figure_names = serializers.DictField(child=serializers.CharField())
    allies = AlliesSerializer(allow_null=True, help_text="The book the list's allied units were checked against.")
    data_as_of = DataAsOfSerializer(required=False, help_text="A stored list's report only: its book and the game "
                                                              "data version that book version came from.")


class FieldErrorSerializer(serializers.Serializer):
    path = serializers.CharField()
    message = serializers.CharField()


class ErrorBodySerializer(serializers.Serializer):
    status = serializers.IntegerField()
    code = serializers.CharField()
    message = serializers.CharField()
    fields = FieldErrorSerializer(many=True)


class ErrorSerializer(serializers.Serializer):
    error = ErrorBodySerializer()


class SystemSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    version = serializers.CharField()
    budget_unit = serializers.CharField()
    categories = serializers.ListField(child=serializers.DictField())
    books = serializers.ListField(child=serializers.DictField())


class BookSummarySerializer(serializers.Serializer):
    system = serializers.CharField()
    id = serializers.CharField()
    version = serializers.CharField()
    name = serializers.CharField()
    entries = serializers.IntegerField()
    imported = serializers.BooleanField()
