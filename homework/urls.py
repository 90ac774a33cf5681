"""Problem sets, mounted at /courses/<code>/sets/."""
from django.urls import path

from . import views

app_name = "homework"
urlpatterns = [
    path("", views.sets, name="sets"),
    path("<int:set_id>/", views.problem_set, name="set"),
    path("<int:set_id>/edit/", views.edit_set, name="edit"),
    path("<int:set_id>/delete/", views.delete_set, name="delete"),
    path("<int:set_id>/dashboard/", views.dashboard, name="dashboard"),
    path("<int:set_id>/items/", views.add_item, name="add-item"),
    path("<int:set_id>/items/<int:item_id>/remove/", views.remove_item, name="remove-item"),
    path("<int:set_id>/items/<int:item_id>/question/", views.item_question, name="item-question"),
]
