"""URLs of exams, mounted at /exams/."""
from django.urls import path

from . import kernel_views, monitor_views, print_views, regrade_views, staff_views, views, zone_views

app_name = "exams"

urlpatterns = [
    # Students
    path("<int:pk>/", views.exam_page, name="exam"),
    path("<int:pk>/start/", views.start, name="start"),
    path("<int:pk>/attempt/", views.attempt_page, name="attempt"),
    path("<int:pk>/attempt/save/", views.save, name="save"),
    path("<int:pk>/attempt/state/", views.state, name="state"),
    path("<int:pk>/attempt/submit/", views.submit, name="submit"),
    path("<int:pk>/attempt/kernel/<int:number>/", kernel_views.kernel_item, name="kernel"),
    path("<int:pk>/attempt/kernel/<int:number>/live/<int:sid>/", kernel_views.kernel_live, name="kernel_live"),
    path("<int:pk>/attempt/kernel/<int:number>/state/", kernel_views.kernel_state_part, name="kernel_state"),
    path("<int:pk>/result/", views.result, name="result"),
    # Staff
    path("course/<int:course_id>/", staff_views.course_exams, name="course"),
    path("course/<int:course_id>/templates/new/", staff_views.template_edit, name="template_new"),
    path("course/<int:course_id>/templates/<int:pk>/", staff_views.template_edit, name="template_edit"),
    path("course/<int:course_id>/templates/new/zones/", zone_views.template_zones_edit, name="template_zones_new"),
    path("course/<int:course_id>/templates/<int:pk>/zones/", zone_views.template_zones_edit, name="template_zones"),
    path("course/<int:course_id>/templates/<int:pk>/export/", staff_views.template_export, name="template_export"),
    path("course/<int:course_id>/templates/<int:pk>/preview/", staff_views.template_preview, name="template_preview"),
    path("course/<int:course_id>/schedule/", staff_views.exam_edit, name="exam_new"),
    path("course/<int:course_id>/exams/<int:pk>/edit/", staff_views.exam_edit, name="exam_edit"),
    path("<int:pk>/accommodations/", staff_views.accommodations, name="accommodations"),
    path("<int:pk>/accommodations/<int:acc_id>/delete/", staff_views.accommodation_delete,
         name="accommodation_delete"),
    path("<int:pk>/results/", staff_views.results, name="results"),
    path("<int:pk>/monitor/", monitor_views.monitor, name="monitor"),
    path("<int:pk>/monitor/live/", monitor_views.monitor_live, name="monitor_live"),
    path("<int:pk>/monitor/end-all/", monitor_views.end_all, name="end_all"),
    path("<int:pk>/regrade/", regrade_views.regrade, name="regrade"),
    path("<int:pk>/regrade/kernels/<int:regrade_id>/", regrade_views.kernel_regrade, name="kernel_regrade"),
    path("<int:pk>/regrade/kernels/<int:regrade_id>/<int:record_id>/old/", regrade_views.old_result,
         name="kernel_regrade_old_result"),
    path("<int:pk>/export/<str:layout>.csv", staff_views.export, name="export"),
    path("<int:pk>/print/", print_views.print_page, name="print"),
    path("<int:pk>/print.pdf", print_views.print_pdf, name="print_pdf"),
    path("attempts/<int:attempt_id>/", staff_views.attempt_detail, name="attempt_detail"),
    path("attempts/<int:attempt_id>/extend/", staff_views.extend, name="extend"),
    path("attempts/<int:attempt_id>/end/", staff_views.end_now, name="end_attempt"),
    path("items/<int:item_id>/reset/", staff_views.reset, name="reset"),
]
