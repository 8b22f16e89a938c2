"""The daily-challenge web service: Flask app, API blueprints, Redis storage."""
